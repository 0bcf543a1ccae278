import { decodeHTML, decodeHTMLAttribute } from 'entities';
import { Parser } from 'htmlparser2';
import { classNamesOf } from './walk.js';

/** An element as a role test sees it while the markup streams by: there is no tree to walk. */
interface StreamedElement {
  name: string;
  /** The attributes the caller keeps (`kept`), entities decoded; of a repeated name, the first. */
  attribs: Readonly<Record<string, string>>;
  classes: readonly string[];
  parent: StreamedElement | undefined;
}

export type StreamedMatcher = (el: StreamedElement) => boolean;

/** The first element of a role inside one item: its kept attributes and its text (descendants' text included). */
interface StreamedPart {
  attribs: Readonly<Record<string, string>>;
  text: string;
}

export type StreamedItem<Role extends string> = Partial<Record<Role, StreamedPart>>;

// Shared by every element with no kept attribute: most of a list's elements (its `div`s, `span`s, headings).
const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});

/**
 * An element whose opening tag has been read, and the parts whose text its text is part of. Its class
 * list is split when a role test first reads it, for speed only: most elements of a list are never
 * asked (an episode list's images carry the longest class attributes, and no role reads them).
 */
class OpenElement implements StreamedElement {
  #classes: readonly string[] | undefined;
  classAttribute: string | undefined;
  attribs = NO_ATTRIBUTES;
  capturing: Capture | null;

  constructor(
    readonly name: string,
    readonly parent: OpenElement | undefined,
  ) {
    this.capturing = parent?.capturing ?? null;
  }

  get classes(): readonly string[] {
    return (this.#classes ??= classNamesOf(this.classAttribute));
  }

  /**
   * One attribute as the tokenizer reads it, its entities decoded by `decode`; the first of a repeated
   * name counts, as in the tree. Speed only: an attribute nobody reads is not decoded.
   */
  attribute(name: string, value: string, kept: ReadonlySet<string>, decode: (value: string) => string): void {
    const isClass = name === 'class' && this.classAttribute === undefined;
    const isKept = kept.has(name) && !Object.hasOwn(this.attribs, name);
    if (!isClass && !isKept) return;
    const decoded = decode(value);
    if (isClass) this.classAttribute = decoded;
    if (!isKept) return;
    if (this.attribs === NO_ATTRIBUTES) this.attribs = {};
    (this.attribs as Record<string, string>)[name] = decoded;
  }
}

// The parts an element's text goes to, innermost first. A chain shared with its ancestors rather
// than an array copied per element, for speed only: a part's element adds one link.
interface Capture {
  part: StreamedPart;
  outer: Capture | null;
}

// htmlparser2 leaves the text of these elements as it is (scripts, styles; its tokenizer treats
// textarea and xmp alike); every other text, and every attribute value, has its entities decoded.
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'xmp']);

// The list goes to the tokenizer in chunks of about this length, each a one-byte copy where it can be (`oneByteIfLatin1`).
const CHUNK_LENGTH = 16 * 1024;

/**
 * Where the chunk from `start` ends: after the last `>` within CHUNK_LENGTH, else after the next
 * one, else at the end. For correctness: the tokenizer hands a text cut by a chunk's end over in two
 * pieces, each decoded alone, and no character reference holds a `>`, so none is cut in two.
 */
function chunkEndAfter(markup: string, start: number): number {
  if (markup.length - start <= CHUNK_LENGTH) return markup.length;
  const within = markup.lastIndexOf('>', start + CHUNK_LENGTH - 1);
  if (within >= start) return within + 1;
  const next = markup.indexOf('>', start + CHUNK_LENGTH);
  return next < 0 ? markup.length : next + 1;
}

const BEYOND_LATIN1 = /[^\0-\xFF]/;

// Where chunks are copied to one byte a character: one per thread, reused by every chunk and list,
// so that a copy allocates only its string. A chunk longer than CHUNK_LENGTH (a text of over 16 KB
// without a `>`) gets a buffer of its own.
const latin1Scratch = Buffer.allocUnsafe(CHUNK_LENGTH * 2);

/**
 * `text` as a string of one byte a character when it holds no character beyond Latin-1; else as it
 * is. Speed only: a page with a single such character (a breadcrumb's `›`) is stored two bytes a
 * character throughout, and htmlparser2's tokenizer reads a one-byte string faster. A chunk's copy
 * is small enough to be a young-generation object, on memory the engine has touched before. A chunk
 * of ASCII alone, which a list almost always is, is told and copied in one pass: its UTF-8 is one
 * byte a character (the scratch buffer is twice the longest chunk it takes: UTF-8 it cuts off at a
 * whole character is then still longer than the chunk, and never mistaken for ASCII).
 */
function oneByteIfLatin1(text: string): string {
  const fits = text.length <= CHUNK_LENGTH;
  if (fits) {
    const written = latin1Scratch.write(text, 'utf8');
    if (written === text.length) return latin1Scratch.toString('latin1', 0, written);
  }
  if (BEYOND_LATIN1.test(text)) return text;
  return fits ? latin1Scratch.toString('latin1', 0, latin1Scratch.write(text, 'latin1')) : Buffer.from(text, 'latin1').toString('latin1');
}

/**
 * Reads the `li` items of the first element whose opening tag `opening` finds in `markup` (a long
 * episode list), without building its tree, since the list is most of a detail page: for each item,
 * the first element of each role, as `firstMatches` and `elementText` would give them on the tree,
 * handed to `read` as soon as the item ends; what `read` returns (undefined: nothing) is kept. For
 * speed only, an item is read at its end rather than after the list: its parts are then garbage
 * before the young generation is next collected, and only what `read` keeps is copied; and of each
 * element only the attributes named in `kept` are kept (the roles and `read` see no other), where
 * the tree would build a record of all of them for every element.
 * For correctness, htmlparser2 parses the element as it does for cheerio (the same events, implied
 * end tags) and stops at its end tag, and entities are decoded by its own decoder in its modes; for
 * speed only, they are decoded only in what the roles see. `rest` is the markup without the
 * element, for the tree of everything else; null when no opening tag is found.
 */
export function streamListItems<Role extends string, Read>(
  markup: string,
  opening: RegExp,
  roles: Record<Role, StreamedMatcher>,
  kept: ReadonlySet<string>,
  read: (item: StreamedItem<Role>) => Read | undefined,
): { items: Read[]; rest: string } | null {
  const start = markup.search(opening);
  if (start < 0) return null;
  const roleNames = Object.keys(roles) as Role[];
  // Roles by position while an item is open (a record per item is built once, at its end).
  const matchers = roleNames.map((role) => roles[role]);
  const items: Read[] = [];
  const open: OpenElement[] = [];
  let item: { parts: Array<StreamedPart | undefined>; depth: number } | undefined;
  // The element whose opening tag is being read: its attributes arrive one by one after its name,
  // and it opens (`settle`) at the next event, as nothing but attributes comes between.
  let pending: OpenElement | undefined;
  let end = markup.length;
  let done = false;
  const list = markup.slice(start);
  // Speed only: a list without a single `&` has no entity to decode, so neither attributes nor
  // texts are searched for one (the per-text test below is then skipped too).
  const decoding = list.includes('&');
  const decodeAttribute = (value: string) => (decoding && value.includes('&') ? decodeHTMLAttribute(value) : value);
  const settle = () => {
    if (pending === undefined) return;
    const element = pending;
    pending = undefined;
    if (element.name === 'li' && item === undefined) {
      item = { parts: new Array<StreamedPart | undefined>(matchers.length), depth: open.length + 1 };
    } else if (item !== undefined) {
      for (let role = 0; role < matchers.length; role++) {
        if (item.parts[role] === undefined && matchers[role]!(element)) {
          const part = { attribs: element.attribs, text: '' };
          item.parts[role] = part;
          element.capturing = { part, outer: element.capturing };
        }
      }
    }
    open.push(element);
  };
  const parser = new Parser(
    {
      onopentagname(name) {
        settle();
        pending = new OpenElement(name, open[open.length - 1]);
      },
      onattribute(name, value) {
        pending?.attribute(name, value, kept, decodeAttribute);
      },
      ontext(raw) {
        settle();
        const innermost = open[open.length - 1];
        if (innermost === undefined || innermost.capturing === null) return;
        const text = decoding && raw.includes('&') && !RAW_TEXT.has(innermost.name) ? decodeHTML(raw) : raw;
        for (let capture: Capture | null = innermost.capturing; capture !== null; capture = capture.outer) capture.part.text += text;
      },
      onclosetag() {
        settle();
        if (item !== undefined && open.length === item.depth) {
          const entry = read(recordOf(roleNames, item.parts));
          if (entry !== undefined) items.push(entry);
          item = undefined;
        }
        open.pop();
        if (open.length === 0) {
          end = start + parser.endIndex + 1;
          done = true;
          parser.pause();
        }
      },
    },
    { decodeEntities: false },
  );
  for (let at = 0; at < list.length && !done;) {
    const chunkEnd = chunkEndAfter(list, at);
    parser.write(oneByteIfLatin1(list.slice(at, chunkEnd)));
    at = chunkEnd;
  }
  if (!done) {
    // An opening tag the markup ends in before its `>` is no element, as in the tree; the last
    // event of a whole one is its `>`.
    if (list.charCodeAt(parser.endIndex) !== GREATER_THAN) pending = undefined;
    parser.end();
  }
  return { items, rest: markup.slice(0, start) + markup.slice(end) };
}

const GREATER_THAN = 0x3e;

function recordOf<Role extends string>(roleNames: readonly Role[], parts: ReadonlyArray<StreamedPart | undefined>): StreamedItem<Role> {
  const item: StreamedItem<Role> = {};
  roleNames.forEach((role, index) => {
    if (parts[index] !== undefined) item[role] = parts[index];
  });
  return item;
}
