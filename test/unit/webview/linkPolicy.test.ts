import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { externalUrl, hostOf, safeHref } from '../../../src/webview/linkPolicy';

describe('link policy', () => {
  it('accepts http, https and mailto, serialised', () => {
    assert.equal(externalUrl('https://nodejs.org/api/http.html#x'), 'https://nodejs.org/api/http.html#x');
    assert.equal(externalUrl('HTTP://Example.COM'), 'http://example.com/');
    assert.equal(externalUrl('mailto:someone@example.com'), 'mailto:someone@example.com');
    assert.equal(externalUrl('  https://example.com/a b'), 'https://example.com/a%20b');
  });

  for (const bad of [
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    ' javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    '\u0000javascript:alert(1)',
    'vbscript:msgbox(1)',
    'VBScript:msgbox(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'command:workbench.action.terminal.new',
    'vscode://file/etc/passwd',
    'ftp://example.com/',
    'blob:https://example.com/uuid',
    'about:blank',
    'https:',
    'http://',
    '//example.com/x',
    '/relative',
    'relative.html',
    '',
    `https://example.com/${'a'.repeat(9000)}`,
  ]) {
    it(`refuses ${JSON.stringify(bad.slice(0, 50))}`, () => {
      assert.equal(externalUrl(bad), undefined);
    });
  }

  it('refuses anything that is not a string', () => {
    assert.equal(externalUrl(undefined), undefined);
    assert.equal(externalUrl({ toString: () => 'https://example.com' }), undefined);
  });

  it('resolves relative links against a base, and re-checks the result', () => {
    assert.equal(safeHref('../b.html', 'https://example.com/a/c.html'), 'https://example.com/b.html');
    assert.equal(safeHref('javascript:alert(1)', 'https://example.com/'), undefined);
    assert.equal(
      safeHref('%6A%61vascript:alert(1)', 'https://example.com/'),
      'https://example.com/%6A%61vascript:alert(1)',
    );
  });

  it('gives the host for display', () => {
    assert.equal(hostOf('https://github.com/nodejs/node/issues/1'), 'github.com');
    assert.equal(hostOf('not a url'), '');
  });
});
