// The Search view's HTML, built in one place (HOUSE_STYLE pattern 6): a strict CSP, a fresh nonce on
// the one script, and every asset through asWebviewUri. Free of `vscode` so tests pass a fake webview.

/** The part of vscode.Webview this builder uses; `U` is vscode.Uri in the extension. */
interface WebviewLike<U> {
  readonly cspSource: string;
  asWebviewUri(local: U): { toString(): string };
}

/** `codicons`: the codicon stylesheet; its font sits beside it and loads through `font-src`. */
interface SearchViewAssets<U> {
  script: U;
  style: U;
  codicons: U;
}

/** 128 random bits, base64: unguessable, and a fresh one on every build of the HTML. */
export function makeNonce(): string {
  // Web Crypto: the same in Node 20+ and in a browser's worker (the web extension builds this HTML too).
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return `default-src 'none'; script-src 'nonce-${nonce}'; style-src ${cspSource}; font-src ${cspSource}`;
}

function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The whole document: the bundle builds the UI, so the body holds only the mount point and a fallback. */
export function buildSearchHtml<U>(
  webview: WebviewLike<U>,
  assets: SearchViewAssets<U>,
  nonce: string = makeNonce(),
): string {
  const script = webview.asWebviewUri(assets.script).toString();
  const style = webview.asWebviewUri(assets.style).toString();
  const codicons = webview.asWebviewUri(assets.codicons).toString();
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(webview.cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(codicons)}">
<link rel="stylesheet" href="${attr(style)}">
<title>Developer Index Search</title>
</head>
<body>
<div id="app" class="app"><p class="boot">Loading the search view…</p></div>
<script nonce="${attr(nonce)}" src="${attr(script)}"></script>
</body>
</html>
`;
}
