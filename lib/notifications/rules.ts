// Inbox rules (spec 3, notifications), without storage (tests/unit/rules.test.ts): how a new event
// lands in a user's inbox and whether it is pinned. deliver.ts applies them in one transaction.

/**
 * A new event on top of `stacked`, the undismissed item of the same stackable event (if any): the
 * new item replaces it and counts both, so the inbox holds one item more only without a stack.
 */
export function landing(stacked: { count?: unknown } | undefined): { count: number; pendingDelta: 0 | 1 } {
  return stacked ? { count: Number(stacked.count ?? 1) + 1, pendingDelta: 0 } : { count: 1, pendingDelta: 1 };
}

/** An item is pinned when the event asks for it and `pinned_until` (if any) is still ahead. */
export const pinnedAt = (data: { pinned?: boolean; pinned_until?: string | null }, now: Date): boolean =>
  Boolean(data.pinned) && (!data.pinned_until || Date.parse(data.pinned_until) > now.getTime());
