// The collaboration mode presets a client can offer (turn/start's collaborationMode): the default
// mode, and plan mode, which plans before it changes anything.
import type { CollaborationModeMask } from '../protocol/configMethods';

export const COLLABORATION_MODES: readonly CollaborationModeMask[] = [
  { name: 'Default', mode: 'default', model: null, reasoning_effort: null },
  { name: 'Plan', mode: 'plan', model: null, reasoning_effort: 'medium' },
];
