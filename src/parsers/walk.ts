import type { Cheerio, CheerioAPI } from 'cheerio/slim';
import { isTag, type AnyNode, type Element, type ParentNode } from 'domhandler';
import { cleanText } from './text.js';

/** Tests one element; `classes` is its class list, split once per element for every matcher. */
export type Matcher = (el: Element, classes: readonly string[]) => boolean;

/**
 * The first element (document order) below `root` for each matcher, found in one walk. Speed only:
 * it gives what one selector query per field would, without walking the tree once per field.
 */
export function firstMatches<Role extends string>(root: ParentNode, matchers: Record<Role, Matcher>): Partial<Record<Role, Element>> {
  const found: Partial<Record<Role, Element>> = {};
  const roles = Object.keys(matchers) as Role[];
  let left = roles.length;
  walk(root, (el, classes) => {
    for (const role of roles) {
      if (found[role] === undefined && matchers[role](el, classes)) {
        found[role] = el;
        left--;
      }
    }
    return left === 0;
  });
  return found;
}

/**
 * The first element (document order) below `root` that `match` accepts; the walk ends there, where
 * a selector query (`$('.postbody').first()`) would find every match first (speed only).
 */
export function firstMatch(root: ParentNode, match: Matcher): Element | undefined {
  return firstMatches(root, { match }).match;
}

/** Every element below `root` that `match` accepts, in document order. */
export function allMatches(root: ParentNode, match: Matcher): Element[] {
  const found: Element[] = [];
  walk(root, (el, classes) => {
    if (match(el, classes)) found.push(el);
    return false;
  });
  return found;
}

/** Visits the elements below `root` in document order until `visit` says it is done. */
function walk(root: ParentNode, visit: (el: Element, classes: readonly string[]) => boolean): void {
  const stack: AnyNode[] = [...root.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isTag(node)) continue;
    if (visit(node, classListOf(node))) return;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
}

/** Whether `el` has an ancestor below `root` (exclusive) that `match` accepts. */
export function hasAncestorWithin(el: Element, root: AnyNode, match: (ancestor: Element) => boolean): boolean {
  for (let node = el.parent; node !== null && node !== root; node = node.parent) {
    if (isTag(node) && match(node)) return true;
  }
  return false;
}

/** Whether an ancestor of `el` has the class `name` (`.thumb img` as a test of one `img`). */
export function insideClass(el: Element, name: string): boolean {
  for (let node = el.parent; node !== null && isTag(node); node = node.parent) if (hasClass(node, name)) return true;
  return false;
}

export function hasClass(el: Element, name: string): boolean {
  return classListOf(el).includes(name);
}

const NO_CLASSES: readonly string[] = [];
// Speed only: a page repeats a few class attributes on hundreds of elements (every `epl-num`, every
// card), so each distinct one is split once. Bounded, so that no page can grow it without limit.
const CLASS_LISTS = new Map<string, readonly string[]>();
const MAX_CLASS_LISTS = 5_000;

/** The element's class names, split once per distinct `class` attribute. */
export function classListOf(el: Element): readonly string[] {
  return classNamesOf(el.attribs['class']);
}

/** The names of a `class` attribute, split once per distinct value. */
export function classNamesOf(attribute: string | undefined): readonly string[] {
  if (attribute === undefined) return NO_CLASSES;
  let classes = CLASS_LISTS.get(attribute);
  if (classes === undefined) {
    if (CLASS_LISTS.size >= MAX_CLASS_LISTS) CLASS_LISTS.clear();
    classes = attribute.split(/\s+/).filter(Boolean);
    CLASS_LISTS.set(attribute, classes);
  }
  return classes;
}

/** The element's text with whitespace collapsed; '' when there is no element. */
export function elementText($: CheerioAPI, el: Element | undefined): string {
  // The static `text` reads the nodes directly, without a Cheerio wrapper per element (speed only).
  return el === undefined ? '' : cleanText($.text([el]));
}

/** The element as a selection to run selector queries in; empty when there is no element. */
export function selectionOf($: CheerioAPI, el: Element | undefined): Cheerio<Element> {
  return $(el === undefined ? ([] as Element[]) : [el]);
}
