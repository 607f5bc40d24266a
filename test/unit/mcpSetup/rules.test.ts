// The agent rules: each client's format and place, our marked block only, the user's text around it kept.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BLOCK_BEGIN, BLOCK_END, RULE_FILES, RULE_TARGETS, ruleBlock, withBlock } from '../../../src/mcpSetup/rules';
import { writeRules } from '../../../src/mcpSetup/setupKit';

describe('agent rules', () => {
  it('a new Claude skill and Cursor rule start with their frontmatter; Copilot and AGENTS.md have none', () => {
    const skill = withBlock('claude', undefined);
    assert.ok(skill.ok);
    assert.match(skill.text, /^---\nname: devindex-search\ndescription: [^\n]+\n---\n\n<!-- devindex:begin -->\n/);
    const rule = withBlock('cursor', undefined);
    assert.ok(rule.ok);
    assert.match(rule.text, /^---\ndescription: [^\n]+\nglobs:\nalwaysApply: false\n---\n\n<!-- devindex:begin -->/);
    for (const t of ['copilot', 'agents'] as const) {
      const r = withBlock(t, undefined);
      assert.ok(r.ok && r.text.startsWith(BLOCK_BEGIN), t);
    }
    assert.equal(RULE_FILES.claude, '.claude/skills/devindex-search/SKILL.md');
    assert.match(RULE_FILES.cursor, /^\.cursor\/rules\/[^/]+\.mdc$/);
  });

  it('says when to search and how to scope it to the installed dependency', () => {
    for (const t of RULE_TARGETS) {
      const b = ruleBlock(t);
      assert.match(b, /error message/);
      assert.match(b, /is this fixed\?/);
      assert.match(b, /dependency's open issues/);
      assert.match(b, /`devIndex_search`/);
      assert.match(b, /"dependency": "undici"/);
      assert.ok(b.startsWith(BLOCK_BEGIN) && b.endsWith(BLOCK_END));
    }
  });

  it("appends to the user's text, then replaces only the block; CRLF files keep CRLF", () => {
    const mine = '# Project rules\n\nUse tabs.\n';
    const first = withBlock('agents', mine);
    assert.ok(first.ok);
    assert.equal(first.text, `${mine}\n${ruleBlock('agents')}\n`);
    const edited =
      first.text.replace('Use tabs.', 'Use tabs. Always.').replace('## Developer index search', '## old words') +
      '\nMore of mine.\n';
    const again = withBlock('agents', edited);
    assert.ok(again.ok && again.changed);
    assert.equal(again.text, `# Project rules\n\nUse tabs. Always.\n\n${ruleBlock('agents')}\n\nMore of mine.\n`);
    const same = withBlock('agents', again.text);
    assert.ok(same.ok && !same.changed, 'a third run changes nothing');
    const crlf = withBlock('copilot', 'Be brief.\r\n');
    assert.ok(crlf.ok && !/[^\r]\n/.test(crlf.text));
  });

  it("refuses markers that are not one pair in order (the user's text might be inside)", () => {
    for (const text of [
      `${BLOCK_BEGIN}\nmine`,
      `${BLOCK_END}\n${BLOCK_BEGIN}`,
      `${BLOCK_BEGIN}${BLOCK_END}${BLOCK_BEGIN}${BLOCK_END}`,
    ]) {
      const r = withBlock('agents', text);
      assert.equal(r.ok, false, text);
      assert.match((r as { reason: string }).reason, /not one pair in that order/);
    }
  });

  it("writeRules writes each file in its place, keeps a file's mode, and never writes an unreadable file", () => {
    const dir = mkdtempSync(join(tmpdir(), 'devindex-rules-'));
    try {
      writeFileSync(join(dir, 'AGENTS.md'), 'Mine.\n', { mode: 0o640 });
      chmodSync(join(dir, 'AGENTS.md'), 0o640);
      mkdirSync(join(dir, '.github', 'copilot-instructions.md'), { recursive: true }); // a folder where the file goes
      const r = writeRules(dir, RULE_TARGETS);
      assert.deepEqual(
        r.map((x) => x.action),
        ['written', 'written', 'refused', 'written'],
      );
      assert.match(r[2]!.reason!, /folder/);
      assert.ok(
        readFileSync(join(dir, '.claude', 'skills', 'devindex-search', 'SKILL.md'), 'utf8').startsWith(
          '---\nname: devindex-search',
        ),
      );
      assert.ok(readFileSync(join(dir, '.cursor', 'rules', 'devindex.mdc'), 'utf8').startsWith('---\ndescription:'));
      assert.ok(readFileSync(join(dir, 'AGENTS.md'), 'utf8').startsWith('Mine.\n\n<!-- devindex:begin -->'));
      assert.equal(statSync(join(dir, 'AGENTS.md')).mode & 0o777, 0o640);
      assert.deepEqual(
        writeRules(dir, ['claude', 'agents']).map((x) => x.action),
        ['unchanged', 'unchanged'],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
