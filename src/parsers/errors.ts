/** The page came back but what must be on it could not be found: the upstream changed its markup. */
export class LayoutChangedError extends Error {
  override readonly name = 'LayoutChangedError';
  constructor(
    readonly pageKind: string,
    readonly missing: string[],
  ) {
    super(`${pageKind} page: could not find ${missing.join(', ')}`);
  }
}

/** A listing page past its last page: the list container is there but holds nothing. */
export class PagePastEndError extends Error {
  override readonly name = 'PagePastEndError';
  constructor(
    readonly pageKind: string,
    readonly page: number,
  ) {
    super(`${pageKind} page ${page} is past the last page`);
  }
}
