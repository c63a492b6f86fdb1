// One row of the conversation: subscribes to its own item and picks the component for its type.
import { memo, type ComponentType } from 'react';
import type { AnyItem } from '../store/state';
import { useItem } from './hooks';
import { CommandExecution } from './items/CommandExecution';
import { FileChange } from './items/FileChange';
import { AgentMessage, PlanText, Reasoning, UserMessage } from './items/messages';
import { ContextCompaction, GenericCard, ImageView, ReviewMode } from './items/misc';
import { ToolCall, WebSearch } from './items/ToolCall';

export interface ItemProps {
  item: AnyItem;
  itemKey: string;
  threadId: string;
}

const components: Record<string, ComponentType<ItemProps>> = {
  userMessage: UserMessage,
  agentMessage: AgentMessage,
  reasoning: Reasoning,
  plan: PlanText,
  commandExecution: CommandExecution,
  fileChange: FileChange,
  mcpToolCall: ToolCall,
  dynamicToolCall: ToolCall,
  webSearch: WebSearch,
  imageView: ImageView,
  enteredReviewMode: ReviewMode,
  exitedReviewMode: ReviewMode,
  contextCompaction: ContextCompaction,
};

export const ItemView = memo(function ItemView({ itemKey, threadId }: { itemKey: string; threadId: string }) {
  const item = useItem(itemKey);
  if (!item) return null;
  const Component = components[item.type] ?? GenericCard;
  return (
    <div className="tl-row" data-item-type={item.type} data-item-id={item.id}>
      <Component item={item} itemKey={itemKey} threadId={threadId} />
    </div>
  );
});
