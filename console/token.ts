// The bearer token of the pages (the console and the reference share it): pasted in a page, or given
// in its URL's fragment (`#token=...`, what `npm start` prints: a fragment is never sent to a server
// nor logged by one). It is kept for the browser tab (sessionStorage) and taken out of the address bar.
const KEY = 'surco.token';

/** The token of this tab: the fragment's, which replaces the one kept, or the one kept. */
export function initialToken(): string | undefined {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const given = fragment.get('token')?.trim();
  if (given) {
    saveToken(given);
    fragment.delete('token');
    const rest = fragment.toString();
    history.replaceState(null, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
  }
  return sessionStorage.getItem(KEY) ?? undefined;
}

export function saveToken(token: string): void {
  sessionStorage.setItem(KEY, token.trim());
}

export function forgetToken(): void {
  sessionStorage.removeItem(KEY);
}

/** The API's base URL: where the page's path (`/console`, `/docs`) is, the stage included in AWS. */
export const apiBase = (): string => new URL('.', location.href).href;
