// The `patch` event form (docs/protocol/events.md §9.1): each event carries what changed in the table view
// since the previous sync or event. applyPatch returns the new view and leaves `state` unchanged.

function parentOf(result, copied, path) {
  const dot = path.indexOf(".");
  if (dot < 0) return [result, path];
  const head = path.slice(0, dot);
  if (!copied.has(head)) {
    result[head] = { ...result[head] };
    copied.add(head);
  }
  return [result[head], path.slice(dot + 1)];
}

export function applyPatch(state, patch) {
  const result = { ...state };
  const copied = new Set();
  for (const [path, value] of Object.entries(patch.set || {})) {
    const [target, key] = parentOf(result, copied, path);
    target[key] = value;
  }
  for (const [path, items] of Object.entries(patch.append || {})) {
    const [target, key] = parentOf(result, copied, path);
    target[key] = [...target[key], ...items];
  }
  for (const path of patch.unset || []) {
    const [target, key] = parentOf(result, copied, path);
    delete target[key];
  }
  return result;
}
