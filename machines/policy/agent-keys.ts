// How many working keys one agent may hold. Every redemption of an enrollment token mints a new
// key (a raw key is shown once), so without a bound a leaked token could mint keys without end;
// past the bound the caller revokes one on the console first.
export const MAX_LIVE_KEYS_PER_AGENT = 20;

export const canHoldAnotherKey = (liveKeys: number): boolean => liveKeys < MAX_LIVE_KEYS_PER_AGENT;
