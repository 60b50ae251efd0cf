// Who stands on the podium's steps. Standard competition ranking ("1224"): players with equal points share a rank
// and a step, and the next rank skips as many places as shared the one before. Nobody stands on a step with 0
// points: a podium is for points scored.

/** The podium's steps: first, second and third. */
export const PODIUM_STEPS = 3;

/**
 * Ranks `lines` by their `points` and gives each its step.
 * @template {{points: number}} Line
 * @param {Line[]} lines in any order
 * @returns {Array<Line & {rank: number, step: number|null}>} best first (equal points keep their order), `rank` =
 *   1 + the number of lines with more points, `step` = `rank` when it is at most 3 and the line has points, else
 *   null (a row below the podium)
 */
export function podiumPlaces(lines) {
  const points = (line) => (Number.isFinite(line?.points) ? line.points : 0);
  const sorted = [...(lines ?? [])].map((line, index) => ({ line, index }))
    .sort((a, b) => points(b.line) - points(a.line) || a.index - b.index)
    .map(({ line }) => line);
  return sorted.map((line) => {
    const rank = 1 + sorted.filter((other) => points(other) > points(line)).length;
    return { ...line, rank, step: rank <= PODIUM_STEPS && points(line) > 0 ? rank : null };
  });
}
