// Renders markdown block by block: finished blocks keep their element while the last one grows.
// Clicks on links go to the extension (which opens them with the editor's link handling), clicks on a
// code block's copy button copy its code.
import { memo, useMemo, useRef, type MouseEvent } from 'react';
import { useHost } from './hooks';
import { renderMarkdown, splitBlocks } from './markdownRender';

export function Markdown({ text }: { text: string }) {
  const host = useHost();
  const blocks = useBlocks(text);
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    const copy = target.closest('.tl-copy');
    if (copy) {
      const code = copy.parentElement?.querySelector('code')?.textContent ?? '';
      void navigator.clipboard?.writeText(code);
      copy.classList.add('tl-copied');
      return;
    }
    const link = target.closest('a');
    if (link) {
      event.preventDefault();
      const href = link.getAttribute('href');
      if (href) host.post({ type: 'openLink', href });
    }
  };
  return (
    <div className="tl-markdown" onClick={onClick}>
      {blocks.map((block, index) => (
        <Block key={index} source={block} />
      ))}
    </div>
  );
}

/**
 * The text's blocks. A streaming message only grows, so everything before its last block stays as it
 * was: only that tail is parsed again, not the whole message on every frame.
 */
function useBlocks(text: string): string[] {
  const previous = useRef({ text: '', blocks: [] as string[], settled: 0, tailStart: 0 });
  return useMemo(() => {
    const last = previous.current;
    const grew = text.startsWith(last.text);
    const settled = grew ? last.blocks.slice(0, last.settled) : [];
    const tailStart = grew ? last.tailStart : 0;
    const tail = splitBlocks(text.slice(tailStart));
    // The tail's last block may still change as text arrives; the ones before it are settled.
    const lastStart =
      tail.length > 1 ? tailStart + text.slice(tailStart).lastIndexOf(tail[tail.length - 1]) : tailStart;
    previous.current = {
      text,
      blocks: [...settled, ...tail],
      settled: settled.length + Math.max(0, tail.length - 1),
      tailStart: lastStart,
    };
    return previous.current.blocks;
  }, [text]);
}

const Block = memo(function Block({ source }: { source: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  // markdown-it runs with html: false, so model output cannot add elements or attributes of its own.
  return <div className="tl-block" dangerouslySetInnerHTML={{ __html: html }} />;
});
