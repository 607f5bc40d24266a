// The `@devindex` participant's commands and follow-ups: pure and tiny, so the activation bundle holds it
// (VS Code asks for follow-ups after each answer; answering them never loads the search code).

export const CHAT_COMMANDS = ['search', 'issues', 'fixed'] as const;
export type ChatCommand = (typeof CHAT_COMMANDS)[number];

/** What an answer leaves in its result's metadata (JSON) for the follow-ups. */
export interface ChatMeta {
  command: ChatCommand;
  /** The question as it was searched (without the dependency's name). */
  question: string;
  /**
   * The dependency the search was scoped to (`/issues`, `/fixed`), or, after `/search`, the workspace dependency the
   * first repository result belongs to.
   */
  dependency?: { name: string; slug: string; version?: string };
  results: number;
  /** `/issues` or `/fixed` named no dependency: some of the workspace's, to offer. */
  choices?: string[];
  /** The newest fix the results state above the installed version (`/fixed`). */
  newerFix?: string;
  error?: boolean;
  cancelled?: boolean;
}

interface Followup {
  prompt: string;
  label: string;
  command: ChatCommand;
}

/** The next scoped question after an answer: search → that dependency's issues → is it fixed → the whole index. */
export function followupsFor(meta: Partial<ChatMeta> | undefined): Followup[] {
  if (!meta || meta.cancelled || meta.error || typeof meta.question !== 'string') return [];
  const q = meta.question;
  const d = meta.dependency;
  const withVersion = (x: { name: string; version?: string }) => (x.version ? `${x.name} ${x.version}` : x.name);
  if (meta.choices?.length) {
    return meta.choices.slice(0, 3).map((name) => ({
      prompt: `${name} ${q}`.trim(),
      label: `/${meta.command} ${name} ${q}`.trim(),
      command: meta.command ?? 'issues',
    }));
  }
  switch (meta.command) {
    case 'search':
      return d
        ? [{ prompt: `${d.name} ${q}`, label: `Search the issues of ${withVersion(d)} installed`, command: 'issues' }]
        : [];
    case 'issues':
      return d
        ? [{ prompt: `${d.name} ${q}`, label: `Is this fixed in ${d.name}, and in which version?`, command: 'fixed' }]
        : [];
    case 'fixed': {
      const out: Followup[] = [];
      if (d && meta.newerFix)
        out.push({
          prompt: `${d.name} ${meta.newerFix}`,
          label: `What changed in ${d.name} ${meta.newerFix}?`,
          command: 'issues',
        });
      out.push({ prompt: q, label: 'Search the whole index, documentation too', command: 'search' });
      return out;
    }
    default:
      return [];
  }
}
