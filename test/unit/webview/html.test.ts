// The HTML builder with a fake webview: the CSP, the nonce and the assets.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildSearchHtml, makeNonce } from '../../../src/webview/html';

const CSP_SOURCE = 'https://file+.vscode-resource.vscode-cdn.net';

function fakeWebview() {
  const converted: string[] = [];
  return {
    converted,
    webview: {
      cspSource: CSP_SOURCE,
      asWebviewUri(local: { path: string }) {
        converted.push(local.path);
        return { toString: () => `${CSP_SOURCE}/ext${local.path}?v=1&x=<"y">` };
      },
    },
  };
}

const assets = {
  script: { path: '/dist/webview.js' },
  style: { path: '/media/webview.css' },
  codicons: { path: '/dist/codicon.css' },
};

function csp(html: string): string {
  const m = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  assert.ok(m, 'a CSP meta tag');
  return m[1]!.replace(/&amp;/g, '&');
}

describe('search view HTML', () => {
  it('carries exactly the CSP: nothing by default, the nonce for scripts, the webview source for styles and fonts', () => {
    const { webview } = fakeWebview();
    const html = buildSearchHtml(webview, assets, 'TESTNONCE');
    assert.equal(
      csp(html),
      `default-src 'none'; script-src 'nonce-TESTNONCE'; style-src ${CSP_SOURCE}; font-src ${CSP_SOURCE}`,
    );
    assert.equal((html.match(/http-equiv="Content-Security-Policy"/g) ?? []).length, 1);
  });

  it('puts the nonce on every script, and every script is external', () => {
    const { webview } = fakeWebview();
    const html = buildSearchHtml(webview, assets, 'N1');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 1);
    for (const s of scripts) {
      assert.match(s[1]!, /\snonce="N1"/);
      assert.match(s[1]!, /\ssrc="/);
      assert.equal(s[2], '', 'no inline script body');
    }
  });

  it('uses a fresh, unguessable nonce on every build', () => {
    const { webview } = fakeWebview();
    const nonces = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const n = /script-src 'nonce-([^']+)'/.exec(csp(buildSearchHtml(webview, assets)))![1]!;
      assert.ok(n.length >= 22, n);
      nonces.add(n);
    }
    assert.equal(nonces.size, 50);
    assert.notEqual(makeNonce(), makeNonce());
  });

  it('loads only assets that went through asWebviewUri, attribute-escaped', () => {
    const { webview, converted } = fakeWebview();
    const html = buildSearchHtml(webview, assets, 'N');
    assert.deepEqual(converted.sort(), ['/dist/codicon.css', '/dist/webview.js', '/media/webview.css']);
    const refs = [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
    assert.equal(refs.length, 3);
    for (const r of refs) assert.ok(r.startsWith(`${CSP_SOURCE}/ext/`), r);
    assert.ok(
      refs.every((r) => r.includes('&amp;x=&lt;&quot;y&quot;&gt;')),
      'asset urls are escaped inside attributes',
    );
  });

  it('has no inline handlers, inline styles or javascript: urls', () => {
    const { webview } = fakeWebview();
    const html = buildSearchHtml(webview, assets, 'N');
    assert.doesNotMatch(html, /\son[a-z]+=/i);
    assert.doesNotMatch(html, /<style|\sstyle=/i);
    assert.doesNotMatch(html, /javascript:/i);
  });
});
