import { describe, expect, it } from 'vitest';
import { mainColumnMarkup } from '../../../src/parsers/scope.js';

describe('mainColumnMarkup', () => {
  const head = '<html><head><style>.postbody{color:red}</style></head><body><div class="th">nav</div>';

  it('keeps the markup from the main column up to the sidebar', () => {
    const html = `${head}<div class="wrapper"><div class="postbody"><h1>Title</h1></div><div id="sidebar"><ul class="genre"></ul></div></div></body></html>`;
    expect(mainColumnMarkup(html)).toBe('<div class="postbody"><h1>Title</h1></div>');
  });

  it('finds the main column among other classes and with single quotes', () => {
    const html = `${head}<div id='main' class='wide postbody left'><p>x</p></div><div  class="section" id='sidebar'>y</div>`;
    expect(mainColumnMarkup(html)).toBe(`<div id='main' class='wide postbody left'><p>x</p></div>`);
  });

  it('ends at the sidebar tag, not at an earlier "sidebar" word, whatever the case and the attributes before its id', () => {
    const column = '<div class="postbody"><p class="sidebar-note">The sidebar lists genres.</p><div data-x="sidebar">a</div></div>';
    const sidebar = '<DIV title="a<b" ID="SIDEBAR" class="right"><ul class="genre"></ul></DIV>';
    expect(mainColumnMarkup(`${head}${column}${sidebar}</body></html>`)).toBe(column);
  });

  it('keeps the rest of the page when no sidebar follows the main column', () => {
    const html = `${head}<div id="sidebar">first</div><div class="postbody"><p>x</p></div></body></html>`;
    expect(mainColumnMarkup(html)).toBe('<div class="postbody"><p>x</p></div></body></html>');
  });

  it('keeps the whole page when it has no main column, and ignores look-alike classes', () => {
    const html = `${head}<div class="postbody-wide"><p>x</p></div><div id="sidebar"></div>`;
    expect(mainColumnMarkup(html)).toBe(html);
  });
});
