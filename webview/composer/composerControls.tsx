// The entries of the composer's toolbar, in the order they show (the last ones go to the overflow menu
// first): model, reasoning effort, approvals and sandbox, attachments. A new control is one more entry.
import type { Model } from '../../server/protocol/modelMethods';
import type { PickerDefaults, TurnOverrides } from '../messages';
import type { ToolbarControl } from './ComposerToolbar';
import { EffortPicker, ModelPicker, modelState, policySummary } from './Pickers';

export interface ComposerControlsInput {
  models: Model[];
  overrides: TurnOverrides;
  defaults: PickerDefaults | null;
  setOverrides: (value: TurnOverrides) => void;
  /** The policy can be chosen here (known, and not fixed by Restricted Mode). */
  policyKnown: boolean;
  policyOpen: boolean;
  togglePolicy: () => void;
  attach: () => void;
  /** Plan mode's toggle, after the pickers. */
  plan: ToolbarControl;
}

export function composerControls(input: ComposerControlsInput): ToolbarControl[] {
  const { models, overrides, defaults, setOverrides, policyKnown, policyOpen, togglePolicy, attach, plan } =
    input;
  const picker = defaults && { models, value: overrides, defaults, onChange: setOverrides };
  const controls: ToolbarControl[] = [];
  if (picker) {
    controls.push({ id: 'model', label: 'Model', inline: <ModelPicker {...picker} /> });
    if (modelState(models, overrides, picker.defaults).efforts.length > 0)
      controls.push({ id: 'effort', label: 'Effort', inline: <EffortPicker {...picker} /> });
  }
  controls.push(plan);
  if (defaults && policyKnown) {
    const summary = policySummary(overrides, defaults);
    controls.push({
      id: 'policy',
      label: 'Approvals',
      inline: (
        <IconButton
          icon="shield"
          label="Approvals and sandbox"
          title={summary}
          expanded={policyOpen}
          onClick={togglePolicy}
        />
      ),
      inMenu: (
        <TextButton icon="shield" label="Approvals and sandbox" expanded={policyOpen} onClick={togglePolicy}>
          {summary.replace(/^Approvals: /, '').replace('; sandbox: ', ' · ')}
        </TextButton>
      ),
    });
  }
  controls.push({
    id: 'attach',
    label: 'Images',
    inline: <IconButton icon="file-media" label="Attach images" title="Attach images" onClick={attach} />,
    inMenu: (
      <TextButton icon="file-media" label="Attach images" onClick={attach}>
        Attach…
      </TextButton>
    ),
  });
  return controls;
}

interface ButtonProps {
  icon: string;
  label: string;
  expanded?: boolean;
  onClick: () => void;
}

function IconButton({ icon, label, title, expanded, onClick }: ButtonProps & { title: string }) {
  return (
    <button
      type="button"
      className="tl-icon-button"
      aria-label={label}
      aria-expanded={expanded}
      title={title}
      onClick={onClick}
    >
      <span className={`codicon codicon-${icon}`} aria-hidden="true" />
    </button>
  );
}

/** In the overflow menu a control says what it holds, so nothing needs a tooltip to be read. */
function TextButton({ icon, label, expanded, onClick, children }: ButtonProps & { children: string }) {
  return (
    <button
      type="button"
      className="tl-button tl-secondary tl-toolbar-text"
      aria-label={label}
      aria-expanded={expanded}
      title={label}
      onClick={onClick}
    >
      <span className={`codicon codicon-${icon}`} aria-hidden="true" /> {children}
    </button>
  );
}
