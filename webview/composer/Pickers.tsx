// The composer's pickers: model and reasoning effort (from model/list) in its toolbar, the permission
// profile (permissionProfile/list: a policy and a sandbox at once), approval policy and sandbox in the
// panel its shield button opens (they change rarely; the bar stays one row in a narrow side bar). Each choice applies to the next turns of this thread; unset defers to the thread's settings.
// Single components, not the barrel: the barrel defines every element (≈200 KiB) on import.
import VscodeOption from '@vscode-elements/react-elements/dist/components/VscodeOption.js';
import VscodeSingleSelect from '@vscode-elements/react-elements/dist/components/VscodeSingleSelect.js';
import type { ApprovalPolicy, SandboxMode } from '../../server/protocol/enums';
import type { Model } from '../../server/protocol/modelMethods';
import type { PickerDefaults, TurnOverrides } from '../messages';

const approvals = [
  ['untrusted', 'Ask for untrusted commands'],
  ['on-request', 'Ask when the agent requests'],
  ['never', 'Never ask'],
] as const satisfies readonly (readonly [ApprovalPolicy, string])[];

const sandboxes = [
  ['read-only', 'Read only'],
  ['workspace-write', 'Workspace write'],
  ['danger-full-access', 'Full access'],
] as const satisfies readonly (readonly [SandboxMode, string])[];

interface Props {
  value: TurnOverrides;
  defaults: PickerDefaults;
  onChange: (value: TurnOverrides) => void;
}

/** The model picker's and the effort picker's choices and current values. */
export function modelState(models: Model[], value: TurnOverrides, defaults: PickerDefaults) {
  const modelId = value.model ?? defaults.model;
  const model = models.find((m) => m.model === modelId || m.id === modelId);
  const efforts = model?.supportedReasoningEfforts.map((e) => e.reasoningEffort) ?? [];
  const effort = value.effort ?? defaults.effort ?? model?.defaultReasoningEffort ?? '';
  const modelChoices = models.some((m) => m.model === modelId)
    ? models
    : [...models, { model: modelId, displayName: modelId } as Model];
  return { modelId, modelName: model?.displayName ?? modelId, efforts, effort, modelChoices };
}

export function ModelPicker({ models, value, defaults, onChange }: Props & { models: Model[] }) {
  const { modelId, modelName, modelChoices } = modelState(models, value, defaults);
  return (
    <Select
      // The select keeps its first option when its value's option arrives after the value (a thread's
      // model missing from model/list, added once the list is in): new options, a new select.
      key={modelChoices.map((m) => m.model).join('\n')}
      label="Model"
      tooltip={`Model: ${modelName}`}
      value={modelId}
      onChange={(v) => onChange({ ...value, model: v, effort: undefined })}
    >
      {modelChoices
        .filter((m) => !m.hidden || m.model === modelId)
        .map((m) => (
          <VscodeOption key={m.model} value={m.model}>
            {m.displayName}
          </VscodeOption>
        ))}
    </Select>
  );
}

export function EffortPicker({ models, value, defaults, onChange }: Props & { models: Model[] }) {
  const { efforts, effort } = modelState(models, value, defaults);
  return (
    <Select
      label="Reasoning effort"
      tooltip={`Reasoning effort: ${effort}`}
      value={effort}
      onChange={(v) => onChange({ ...value, effort: v })}
    >
      {efforts.map((e) => (
        <VscodeOption key={e} value={e}>
          {e}
        </VscodeOption>
      ))}
    </Select>
  );
}

export function PolicyPickers({ value, defaults, onChange }: Props) {
  return (
    <div className="tl-policy" role="group" aria-label="Approvals and sandbox">
      {!!defaults.profiles?.length && <ProfilePicker value={value} defaults={defaults} onChange={onChange} />}
      <div className="tl-policy-row">
        <span>Approvals</span>
        <Select
          label="Approval policy"
          value={value.approvalPolicy ?? defaults.approvalPolicy}
          onChange={(v) => onChange({ ...value, approvalPolicy: approvals.find(([id]) => id === v)?.[0] })}
        >
          {approvals.map(([id, label]) => (
            <Choice key={id} id={id} label={label} forbidden={defaults.forbidden?.[id]} />
          ))}
        </Select>
      </div>
      <div className="tl-policy-row">
        <span>Sandbox</span>
        <Select
          label="Sandbox"
          value={value.sandbox ?? defaults.sandbox}
          onChange={(v) => onChange({ ...value, sandbox: sandboxes.find(([id]) => id === v)?.[0] })}
        >
          {sandboxes.map(([id, label]) => (
            <Choice key={id} id={id} label={label} forbidden={defaults.forbidden?.[id]} />
          ))}
        </Select>
      </div>
    </div>
  );
}

/**
 * The profile the approval policy and sandbox make up, or Custom when they make up none; choosing a
 * profile sets both.
 */
function ProfilePicker({ value, defaults, onChange }: Props) {
  const profiles = defaults.profiles ?? [];
  const approvalPolicy = value.approvalPolicy ?? defaults.approvalPolicy;
  const sandbox = value.sandbox ?? defaults.sandbox;
  const current = profiles.find((p) => p.approvalPolicy === approvalPolicy && p.sandbox === sandbox);
  return (
    <div className="tl-policy-row">
      <span>Profile</span>
      <Select
        // Custom comes and goes with the choice: new options, a new select (see ModelPicker).
        key={current ? 'profile' : 'custom'}
        label="Permission profile"
        tooltip={current?.description ?? 'Permission profile: custom approvals and sandbox'}
        value={current?.id ?? ''}
        onChange={(id) => {
          const chosen = profiles.find((p) => p.id === id);
          if (chosen) onChange({ ...value, approvalPolicy: chosen.approvalPolicy, sandbox: chosen.sandbox });
        }}
      >
        {!current && <VscodeOption value="">Custom</VscodeOption>}
        {profiles.map((p) => (
          <Choice
            key={p.id}
            id={p.id}
            label={p.label}
            title={p.description}
            forbidden={p.allowed ? undefined : 'Not allowed by requirements.toml'}
          />
        ))}
      </Select>
    </div>
  );
}

/** A choice requirements.toml forbids stays in the list, greyed out, with the reason as its tooltip. */
function Choice({
  id,
  label,
  title,
  forbidden,
}: {
  id: string;
  label: string;
  title?: string;
  forbidden: string | undefined;
}) {
  return (
    <VscodeOption value={id} disabled={forbidden !== undefined} title={forbidden ?? title}>
      {forbidden === undefined ? label : `${label} (not allowed)`}
    </VscodeOption>
  );
}

/** The shield button's tooltip: what the next turn runs with. */
export function policySummary(value: TurnOverrides, defaults: PickerDefaults): string {
  const approval = approvals.find(([id]) => id === (value.approvalPolicy ?? defaults.approvalPolicy));
  const sandbox = sandboxes.find(([id]) => id === (value.sandbox ?? defaults.sandbox));
  return `Approvals: ${approval?.[1] ?? defaults.approvalPolicy}; sandbox: ${sandbox?.[1] ?? defaults.sandbox}`;
}

function Select({
  label,
  tooltip,
  value,
  onChange,
  children,
}: {
  label: string;
  tooltip?: string;
  value: string;
  onChange: (v: string) => void;
  children: React.ReactNode;
}) {
  return (
    <VscodeSingleSelect
      aria-label={label}
      title={tooltip ?? label}
      value={value}
      onChange={(event) => onChange((event.target as HTMLSelectElement).value)}
    >
      {children}
    </VscodeSingleSelect>
  );
}
