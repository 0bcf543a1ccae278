/**
 * The update pass reads the site's update-ordered list from the top. A series that got a new
 * episode (or any change) moves to the top; below the moved ones the list keeps the order it had.
 * The walk stops where the rest of a page is a run of the order last seen, once the series that
 * moved up are taken out of it: everything above that point changed, nothing below did.
 */

export interface WalkCard {
  slug: string;
  /** Held already, with the same list card as before. */
  known: boolean;
}

export interface WalkStep {
  /** The cards of this page above the stopping point that are new or moved up. */
  changed: string[];
  /** The rest of the list keeps its order: no further page is needed. */
  stop: boolean;
}

/**
 * One page of the walk. `previousOrder` is the list as last seen; `movedUp` holds the slugs found
 * changed on earlier pages of this walk (and is extended with this page's). On the list's last
 * page, a single trailing card is enough to stop; elsewhere a run of at least two is needed, so that
 * one card that happens to stand where it stood before does not end the walk.
 */
export function walkUpdatePage(
  cards: readonly WalkCard[],
  previousOrder: readonly string[],
  movedUp: Set<string>,
  lastPage: boolean,
): WalkStep {
  const changed: string[] = [];
  for (let index = 0; index < cards.length; index++) {
    const card = cards[index]!;
    if (card.known) {
      const remaining = previousOrder.filter((slug) => !movedUp.has(slug));
      const at = remaining.indexOf(card.slug);
      const rest = cards.slice(index);
      const inOrder = at !== -1 && rest.every((later, offset) => later.known && remaining[at + offset] === later.slug);
      if (inOrder && (rest.length >= 2 || lastPage)) return { changed, stop: true };
      // The page's last card in its old place: undecided, the next page tells.
      if (inOrder) return { changed, stop: false };
    }
    changed.push(card.slug);
    movedUp.add(card.slug);
  }
  return { changed, stop: lastPage };
}
