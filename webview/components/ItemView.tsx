// One row of the conversation: subscribes to its own item and picks the component for its type. Known
// items are narrowed to their protocol type, so each component reads typed fields; a new item type in
// the protocol fails to compile here until it has a component.
import { memo } from 'react';
import type { ThreadItem } from '../../server/protocol/items';
import { isThreadItem } from '../../server/protocol/itemTypes';
import { HOOK_RUN_TYPE, type UnknownItem } from '../store/state';
import { useItem } from './hooks';
import { CommandExecution } from './items/CommandExecution';
import { FileChange } from './items/FileChange';
import { HookRun } from './items/HookRun';
import { AgentMessage, Reasoning, UserMessage } from './items/messages';
import { PlanCard } from './items/PlanCard';
import { ContextCompaction, GenericCard, ImageView, ReviewMode } from './items/misc';
import { ToolCall, WebSearch } from './items/ToolCall';
import { EditMessageButton } from '../states/TurnActions';

export const ItemView = memo(function ItemView({ itemKey }: { itemKey: string }) {
  const item = useItem(itemKey);
  if (!item) return null;
  return (
    <div className="tl-row" data-item-type={item.type} data-item-id={item.id}>
      {isThreadItem(item) ? <KnownItem item={item} itemKey={itemKey} /> : <OtherItem item={item} />}
    </div>
  );
});

function KnownItem({ item, itemKey }: { item: ThreadItem; itemKey: string }) {
  switch (item.type) {
    case 'userMessage':
      return (
        <>
          <UserMessage item={item} />
          <EditMessageButton itemKey={itemKey} />
        </>
      );
    case 'agentMessage':
      return <AgentMessage item={item} />;
    case 'reasoning':
      return <Reasoning item={item} />;
    case 'plan':
      return <PlanCard item={item} turnId={itemKey.slice(0, itemKey.indexOf('/'))} />;
    case 'commandExecution':
      return <CommandExecution item={item} />;
    case 'fileChange':
      return <FileChange item={item} />;
    case 'mcpToolCall':
    case 'dynamicToolCall':
      return <ToolCall item={item} itemKey={itemKey} />;
    case 'imageView':
      return <ImageView item={item} />;
    case 'enteredReviewMode':
    case 'exitedReviewMode':
      return <ReviewMode item={item} />;
    case 'contextCompaction':
      return <ContextCompaction />;
    default:
      return unhandled(item);
  }
}

/**
 * Rows that are not protocol items (a hook's run) and item types of a newer (or the reference) protocol:
 * web searches get their card, others the generic one.
 */
function OtherItem({ item }: { item: UnknownItem }) {
  if (item.type === HOOK_RUN_TYPE) return <HookRun item={item} />;
  return item.type === 'webSearch' ? <WebSearch item={item} /> : <GenericCard item={item} />;
}

function unhandled(item: never): never {
  throw new Error(`no component for item ${JSON.stringify(item)}`);
}
