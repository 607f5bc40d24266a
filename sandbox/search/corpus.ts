// Loads a corpus folder in the format of docs/ARCHITECTURE.md ("Corpus format") into documents.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import * as z from 'zod';
import { chunkMarkdown } from './passages';
import { tokenize } from './text';

/** `web`: general pages, served only on the production wire when a request does not send `types`. */
export type DocType = 'doc' | 'issue' | 'pull_request' | 'readme' | 'web';

const sourceSchema = z.object({
  id: z.string().min(1),
  name: z.string().optional(),
  baseUrl: z.string().min(1),
  // Not in the documented format; lets a corpus list a source that has no published generation yet.
  indexed: z.boolean().optional(),
});
const repoSchema = z.object({
  repo: z.string().regex(/^[^/\s]+\/[^/\s]+$/),
  indexed: z.boolean(),
  types: z.object({ issue: z.boolean(), pullRequest: z.boolean(), readme: z.boolean() }),
  language: z.string().optional(),
  topics: z.array(z.string()).optional(),
  license: z.string().optional(),
  stars: z.number().optional(),
  archived: z.boolean().optional(),
  fork: z.boolean().optional(),
});
export type SourceInfo = z.infer<typeof sourceSchema>;
export type RepoInfo = z.infer<typeof repoSchema>;

export interface CorpusDoc {
  id: string;
  type: DocType;
  url: string;
  title?: string;
  /** The body without the title line. */
  body: string;
  source?: string;
  repo?: RepoInfo;
  skill: boolean;
  chunks: string[];
  /** The deep link of each chunk (production's `citation_url`): a heading anchor, or an issue comment. */
  citations: string[];
  /** Tokens of each chunk, for passage scoring. */
  chunkTerms: Array<Set<string>>;
  /** Every token of title and body, the title's tokens, and every pair of adjacent tokens: for the rerank stage. */
  terms: Set<string>;
  titleTerms: Set<string>;
  bigrams: Set<string>;
}

export interface Corpus {
  dir: string;
  sources: Map<string, SourceInfo>;
  /** Keyed by lower-cased slug: repository slugs are case-insensitive. */
  repos: Map<string, RepoInfo>;
  docs: CorpusDoc[];
}

function readJson<T>(file: string, schema: z.ZodType<T>, warn: (m: string) => void): T[] {
  if (!existsSync(file)) {
    warn(`sandbox: ${file} is missing; treating it as empty`);
    return [];
  }
  const parsed = z.array(schema).safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new Error(`sandbox: ${file} does not match the corpus format: ${first?.path.join('.')}: ${first?.message}`);
  }
  return parsed.data;
}

function mdFiles(dir: string, acc: string[] = []): string[] {
  if (!existsSync(dir)) return acc;
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) mdFiles(p, acc);
    else if (name.endsWith('.md')) acc.push(p);
  }
  return acc;
}

/** Title: the first line when it is `# …`; the body is everything after it. */
export function splitTitle(markdown: string): { title?: string; body: string } {
  const text = markdown.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const nl = text.indexOf('\n');
  const first = nl < 0 ? text : text.slice(0, nl);
  const m = /^# +(.*\S)\s*$/.exec(first);
  if (!m) return { body: text.trim() };
  return { title: m[1], body: (nl < 0 ? '' : text.slice(nl + 1)).trim() };
}

function makeDoc(d: Pick<CorpusDoc, 'id' | 'type' | 'url' | 'source' | 'repo' | 'skill'>, markdown: string): CorpusDoc {
  const { title, body } = splitTitle(markdown);
  const chunks = chunkMarkdown(body);
  const all = tokenize(`${title ?? ''}\n${body}`);
  if (chunks.length === 0) chunks.push(title ?? '');
  const doc: CorpusDoc = {
    ...d,
    body,
    chunks,
    citations: chunks.map((c, i) => citationOf(d.type, d.url, c, i)),
    chunkTerms: chunks.map((c) => new Set(tokenize(c))),
    terms: new Set(all),
    titleTerms: new Set(tokenize(title ?? '')),
    bigrams: bigrams(all),
  };
  if (title !== undefined) doc.title = title;
  return doc;
}

/** GitHub-style heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s+/g, '-');
}

/**
 * A chunk's deep link. Issues and pull requests: the first chunk is the opening post, later ones
 * stand for comments (`#issuecomment-<n>`, stable per document and chunk). Pages and READMEs: the
 * anchor of the heading the chunk starts with, else the page itself.
 */
export function citationOf(type: DocType, url: string, chunk: string, index: number): string {
  const base = url.replace(/#.*$/, '');
  if (type === 'issue' || type === 'pull_request') {
    if (index === 0) return base;
    const n = /\/(\d+)$/.exec(base)?.[1] ?? '0';
    return `${base}#issuecomment-${1_000_000 + Number(n) * 100 + index}`;
  }
  const h = /^ {0,3}#{1,6}\s+(.+?)\s*#*\s*$/m.exec(chunk.split('\n', 1)[0] ?? '');
  return h ? `${base}#${headingAnchor(h[1]!)}` : url;
}

/** Adjacent token pairs, `a b`: a phrase match measured without scanning text at query time. */
export function bigrams(tokens: string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 1; i < tokens.length; i++) out.add(`${tokens[i - 1]} ${tokens[i]}`);
  return out;
}

const posix = (p: string): string => p.split(sep).join('/');

/**
 * An issue or pull request added to a loaded corpus while the sandbox runs (test mode: `POST /__sandbox/corpus`),
 * as if the index had just crawled it; undefined when the repository is not an indexed one of the corpus.
 */
export function repositoryDoc(
  corpus: Corpus,
  repo: string,
  type: 'issue' | 'pull_request',
  number: number,
  markdown: string,
): CorpusDoc | undefined {
  const info = corpus.repos.get(repo.toLowerCase());
  if (!info?.indexed) return undefined;
  const url = `https://github.com/${info.repo}/${type === 'issue' ? 'issues' : 'pull'}/${number}`;
  return makeDoc({ id: `${type}:${info.repo}#${number}`, type, url, repo: info, skill: false }, markdown);
}

export function loadCorpus(dir: string, warn: (m: string) => void = () => {}): Corpus {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`sandbox: corpus folder not found: ${dir}`);
  const sources = new Map(readJson(join(dir, 'sources.json'), sourceSchema, warn).map((s) => [s.id, s]));
  const repos = new Map(readJson(join(dir, 'repos.json'), repoSchema, warn).map((r) => [r.repo.toLowerCase(), r]));
  const docs: CorpusDoc[] = [];

  for (const src of sources.values()) {
    if (src.indexed === false) continue;
    const root = join(dir, 'docs', src.id);
    for (const file of mdFiles(root)) {
      const path = posix(relative(root, file)).replace(/\.md$/, '');
      const skill = /^skills\/[^/]+\/SKILL$/.test(path);
      docs.push(
        makeDoc(
          { id: `doc:${src.id}/${path}`, type: 'doc', url: `${src.baseUrl}${path}.html`, source: src.id, skill },
          readFileSync(file, 'utf8'),
        ),
      );
    }
  }

  for (const info of repos.values()) {
    if (!info.indexed) continue;
    const [owner, name] = info.repo.split('/') as [string, string];
    const root = join(dir, 'repos', owner, name);
    const gh = `https://github.com/${info.repo}`;
    const readme = join(root, 'README.md');
    if (info.types.readme && existsSync(readme)) {
      docs.push(
        makeDoc(
          { id: `readme:${info.repo}`, type: 'readme', url: `${gh}#readme`, repo: info, skill: false },
          readFileSync(readme, 'utf8'),
        ),
      );
    }
    const numbered = (sub: string, type: 'issue' | 'pull_request', urlPart: string): void => {
      const folder = join(root, sub);
      if (!existsSync(folder)) return;
      for (const f of readdirSync(folder).sort()) {
        const m = /^(\d+)\.md$/.exec(f);
        if (!m) continue;
        docs.push(
          makeDoc(
            { id: `${type}:${info.repo}#${m[1]}`, type, url: `${gh}/${urlPart}/${m[1]}`, repo: info, skill: false },
            readFileSync(join(folder, f), 'utf8'),
          ),
        );
      }
    };
    if (info.types.issue) numbered('issues', 'issue', 'issues');
    if (info.types.pullRequest) numbered('pulls', 'pull_request', 'pull');
  }
  // web/<host>/<path>.md: a general page at https://<host>/<path> (production's `web:` results).
  const webRoot = join(dir, 'web');
  for (const file of mdFiles(webRoot)) {
    const url = `https://${posix(relative(webRoot, file))
      .replace(/\.md$/, '')
      .replace(/\/index$/, '/')}`;
    docs.push(makeDoc({ id: `web:${url}`, type: 'web', url, skill: false }, readFileSync(file, 'utf8')));
  }
  return { dir, sources, repos, docs };
}
