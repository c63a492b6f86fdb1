// Where a thread opens: the user's `threadline.conversation.openIn` setting, or a placement the user
// asked for this once (the tree's Open in Editor, Open to the Side).
import * as vscode from 'vscode';

export type OpenIn = 'view' | 'editor' | 'secondarySideBar';
/** `default`: as the setting says. */
export type Placement = 'default' | 'editor' | 'side';

export const OPEN_IN_SETTING = 'threadline.conversation.openIn';
/** The Conversation view under Threads, and its twin contributed to the secondary side bar. */
export const primaryViewId = 'threadline.conversation';
export const secondaryViewId = 'threadline.secondaryConversation';

export function openIn(): OpenIn {
  const value = vscode.workspace.getConfiguration().get<string>(OPEN_IN_SETTING);
  return value === 'editor' || value === 'secondarySideBar' ? value : 'view';
}

/** The Conversation view the setting shows (the other one is hidden by its `when` clause). */
export function shownViewId(): string {
  return openIn() === 'secondarySideBar' ? secondaryViewId : primaryViewId;
}

export function isPlacement(value: unknown): value is Placement {
  return value === 'default' || value === 'editor' || value === 'side';
}
