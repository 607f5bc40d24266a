// How `npm test` (scripts/test-all.mjs) lays out its tiers on the machine's 2 cores: which start together, which
// run side by side after the build, and which tier of a lane goes next.

/**
 * The second lane: two e2e suites run apart from the e2e tier (they wait more than they compute), then the host tier,
 * so that the three lanes end near the same time.
 */
const SECOND = ['e2e-watches', 'e2e-chat', 'host'];

/** The tiers that run an editor from the provisioning cache: each starts once `provision` has ended. */
export const EDITOR_TIERS = ['host', 'e2e', 'web', 'e2e-watches', 'e2e-chat'];

/**
 * The plan for the chosen tiers. `start`: begun together, the provisioning beside the build (the one mostly network,
 * disk and one core of native builds, the other CPU). `lanes`: begun when the build ends, side by side, each running
 * its tiers one after another: e2e (the longest) alone on one; the two-window watch suite, the chat suite and the host
 * tier on the second (the two suites spend most of their time waiting, on a watch interval and on the workbench);
 * every other tier in order on the third. `serial`: one lane of every tier in turn, nothing beside anything.
 */
export function planLanes(chosen, { serial = false } = {}) {
  const provision = chosen.includes('provision') || chosen.some((n) => EDITOR_TIERS.includes(n));
  const start = [...(provision ? ['provision'] : []), ...(chosen.includes('build') ? ['build'] : [])];
  const rest = chosen.filter((n) => n !== 'provision' && n !== 'build');
  if (serial) return { start: [], lanes: [[...start, ...rest]] };
  const lanes = [
    rest.filter((n) => n === 'e2e'),
    SECOND.filter((n) => rest.includes(n)),
    rest.filter((n) => n !== 'e2e' && !SECOND.includes(n)),
  ];
  return { start, lanes: lanes.filter((l) => l.length) };
}

/**
 * The index in a lane's queue of the tier to run next: the first, unless it is an editor tier and the provisioning
 * has not ended; then the first tier that needs no editor goes before it (if none is left, the editor tier waits).
 */
export function nextTier(queue, provisioned) {
  if (provisioned || !EDITOR_TIERS.includes(queue[0])) return 0;
  const i = queue.findIndex((n) => !EDITOR_TIERS.includes(n));
  return i < 0 ? 0 : i;
}
