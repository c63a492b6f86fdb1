// Renders markdown block by block: finished blocks keep their element while the last one grows.
// Clicks on links go to the extension (which opens them with the editor's link handling), clicks on a
// code block's copy button copy its code.
import { memo, useMemo, type MouseEvent } from 'react';
import { useHost } from './hooks';
import { renderMarkdown, splitBlocks } from './markdownRender';

export function Markdown({ text }: { text: string }) {
  const host = useHost();
  const blocks = useMemo(() => splitBlocks(text), [text]);
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

const Block = memo(function Block({ source }: { source: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  // markdown-it runs with html: false, so model output cannot add elements or attributes of its own.
  return <div className="tl-block" dangerouslySetInnerHTML={{ __html: html }} />;
});
