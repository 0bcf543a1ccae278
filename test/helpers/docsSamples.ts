import { isDeepStrictEqual } from 'node:util';
import { load } from 'cheerio';
import { answerForm, type SampleLanguage } from '../../src/pages/codeSamples.js';

/** One block of code samples on /docs, as a person reads it there. */
export interface DocsSampleBlock {
  /** "GET /catalog/search", "POST /api/reports", … */
  name: string;
  mediaType: string;
  code: Record<SampleLanguage, string>;
}

/** Every code-sample block of an API reference page, in page order: endpoints, feeds, reports alike. */
export function docsSampleBlocks(html: string): DocsSampleBlock[] {
  const $ = load(html);
  return $('[data-code-samples]')
    .map((_, block) => {
      const code = Object.fromEntries(
        $(block)
          .find('.code-sample')
          .map((__, sample) => [[$(sample).attr('data-language'), $(sample).find('[data-code]').text()]])
          .get(),
      ) as Record<SampleLanguage, string>;
      return { name: $(block).attr('data-name') as string, mediaType: $(block).attr('data-media-type') as string, code };
    })
    .get();
}

const essence = (mediaType: string) => mediaType.split(';')[0]!.trim().toLowerCase();

/** Whether an answer's Content-Type is the media type a block names (parameters such as charset aside). */
export const sameMediaType = (contentType: string, mediaType: string) => essence(contentType) === essence(mediaType);

/** What a sample prints for a successful answer: the envelope's data, a JSON document, or the text. */
export function answerShown(body: string, mediaType: string): unknown {
  const form = answerForm(mediaType);
  if (form === 'envelope') return (JSON.parse(body) as { data: unknown }).data;
  return form === 'json' ? JSON.parse(body) : body;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Why what a sample printed is not the app's answer to its request; null when it is. A GET is asked
 * again (the app answers from its cache); a report sample prints a new report, which must be stored.
 */
export async function shownMismatch(block: DocsSampleBlock, shown: unknown, baseUrl: string): Promise<string | null> {
  if (block.name.startsWith('POST ')) {
    const { id } = shown as { id: string };
    return UUID.test(id) && (await fetch(`${baseUrl}/report/sent/${id}`)).status === 200 ? null : `${block.name}: no stored report ${id}`;
  }
  const url = /^curl '([^']+)'$/.exec(block.code.curl)?.[1] as string;
  const answer = await fetch(url);
  if (answer.status !== 200) return `${block.name}: ${url} answered ${answer.status}`;
  return isDeepStrictEqual(shown, answerShown(await answer.text(), block.mediaType))
    ? null
    : `${block.name}: showed ${String(JSON.stringify(shown)).slice(0, 300)}`;
}
