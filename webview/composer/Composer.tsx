// The composer: Enter sends (a new turn, or steering while one runs), Shift+Enter adds a line, Stop
// interrupts, `@` mentions workspace files, images come from the file picker or the clipboard. With no
// thread open, sending starts one. Before a turn is sent the host checks the provider can take it; when
// it cannot, a setup card shows and the draft stays, to be sent once set up. The draft is kept per
// thread (a new thread's under "") in the webview's saved state; nothing else ever writes into it
// except the user's own "add to thread" commands, which append. `/` at the start opens the commands
// menu (SlashMenu.tsx); the plan toggle puts the thread in plan mode (planMode.ts).
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ClipboardEvent,
  type KeyboardEvent,
} from 'react';
import type { Model } from '../../server/protocol/modelMethods';
import type { UserInput } from '../../server/protocol/userInput';
import type { PickerDefaults, TurnOverrides } from '../messages';
import { useHost, useView } from '../components/hooks';
import { EditingNotice, useComposerFill } from './composerFill';
import { SetupCard } from '../setup/SetupCard';
import { useSetup } from '../setup/useSetup';
import { ComposerToolbar } from './ComposerToolbar';
import { composerControls } from './composerControls';
import { PolicyPickers } from './Pickers';
import { RestrictedNotice, useRestricted } from './RestrictedNotice';
import { SkillSuggestions, useSkillCompletion } from './SkillSuggestions';
import { skillItems } from './skillMention';
import { SuggestionList } from './SuggestionList';
import { useMentions } from './useMentions';
import { useComposerCommands, type Outgoing } from './composerCommands';
import { planModes, usePlanMode } from './planMode';
import { planControl } from './PlanToggle';
import { parseSlash } from './slashCommands';
import { SlashSuggestions, useSlashCommands } from './SlashMenu';
import { StatusCard } from './StatusCard';

/** `threadId` null: the composer of a thread still to start (the view with no thread open). */
export function Composer({
  threadId,
  newThreadDefaults,
}: {
  threadId: string | null;
  newThreadDefaults?: PickerDefaults;
}) {
  const host = useHost();
  const draftKey = threadId ?? '';
  const settings = useView((s) => s.settings);
  const running = useView((s) => {
    const last = s.turns[s.turnIds[s.turnIds.length - 1]];
    return last?.status === 'inProgress' ? last.id : null;
  });
  const [draft, setDraftState] = useState(() => host.state.drafts[draftKey] ?? '');
  const [images, setImages] = useState<string[]>([]);
  const [overrides, setOverrides] = useState<TurnOverrides>({});
  const [models, setModels] = useState<Model[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [policyOpen, setPolicyOpen] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const mentions = useMentions(draft, input);
  const skills = useSkillCompletion(draft, input);
  const setup = useSetup(host);
  const [planning, setPlanning] = usePlanMode(draftKey);
  const lastTurnId = useView((s) => s.turnIds[s.turnIds.length - 1] ?? null);
  useGrowWithContent(input, draft);
  const threadDefaults: PickerDefaults | null = settings && {
    model: settings.model,
    effort: settings.reasoningEffort,
    approvalPolicy: settings.approvalPolicy,
    sandbox: settings.sandbox,
    forbidden: settings.forbidden,
    profiles: settings.profiles,
  };
  const defaults = threadId ? threadDefaults : withDefaultModel(newThreadDefaults, models);
  // Before a thread starts, config.toml may decide the policy: offered only when the settings name it.
  // In Restricted Mode the host fixes the policy: no picker pretends otherwise.
  const restricted = useRestricted();
  const policyKnown = !!defaults?.approvalPolicy && !!defaults.sandbox && !restricted;

  const setDraft = useCallback(
    (text: string) => {
      setDraftState(text);
      host.saveState({ drafts: { ...host.state.drafts, [draftKey]: text } });
    },
    [host, draftKey],
  );
  const edit = useComposerFill(setDraft, input, lastTurnId ?? undefined);

  useEffect(() => {
    setDraftState(host.state.drafts[draftKey] ?? '');
    setImages([]);
    return host.onMessage((m) => {
      if (m.type === 'insertText') setDraft(appended(host.state.drafts[draftKey] ?? '', m.text));
      if (m.type === 'focusComposer') input.current?.focus();
    });
  }, [host, draftKey, setDraft]);

  useEffect(() => {
    host.request('listModels', {}).then(
      (r) => setModels(r.models),
      () => setModels([]),
    );
  }, [host]);

  const slash = useSlashCommands(
    input,
    (item) => runSlash(item, ''),
    (text) => setDraft(text),
  );
  const modes = planModes(host);

  const send = async (outgoing?: Outgoing) => {
    const command = outgoing ? null : parseSlash(draft, slash.items);
    if (command) return runSlash(command.item, command.args);
    const text = (outgoing?.text ?? draft).trim();
    if (!text && images.length === 0) return;
    let attached: UserInput[];
    try {
      attached = await mentions.attached(text);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return;
    }
    const content: UserInput[] = [
      ...(text ? [{ type: 'text' as const, text }] : []),
      ...images.map((path) => ({ type: 'localImage' as const, path })),
      ...skillItems(text, skills.picked),
      ...attached,
    ];
    setError(null);
    // Steering joins a turn that already reached the model; a new turn is checked first.
    if (!running && !(await setup.ready())) return;
    const keep = outgoing?.keepDraft === true;
    if (!keep) {
      setDraft('');
      setImages([]);
      skills.clearPicked();
    }
    const mode = outgoing?.mode ?? modes.modeToSend(draftKey);
    // '' before a thread starts with no model known: the host gives the mode the new thread's.
    const model = overrides.model ?? defaults?.model ?? '';
    const turnOverrides = mode ? { ...overrides, mode: { mode, model } } : overrides;
    try {
      if (running && threadId) await host.request('steerTurn', { threadId, turnId: running, input: content });
      else if (threadId && edit.editTurnId) {
        await host.request('resendEdited', {
          threadId,
          turnId: edit.editTurnId,
          input: content,
          overrides: turnOverrides,
        });
        edit.cancel();
        if (mode) modes.sent(draftKey);
      } else if (threadId) {
        await host.request('startTurn', { threadId, input: content, overrides: turnOverrides });
        if (mode) modes.sent(draftKey);
      } else {
        const started = await host.request('startThread', { input: content, overrides: turnOverrides });
        if (mode) modes.sent(draftKey, started.threadId);
      }
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      if (keep) return;
      setDraft(draft); // the text is the user's: give it back when it could not be sent
      setImages(images);
    }
  };
  const { runSlash, statusOpen, closeStatus } = useComposerCommands({
    threadId,
    send,
    setDraft,
    setError,
    setPlanning,
    input,
    finishedTurnId: running ? null : lastTurnId,
  });

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (slash.onKeyDown(event) || mentions.onKeyDown(event, setDraft) || skills.onKeyDown(event, setDraft))
      return;
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const file = [...event.clipboardData.files].find((f) => f.type.startsWith('image/'));
    if (!file) return;
    event.preventDefault();
    const reader = new FileReader();
    reader.onload = () =>
      host.request('saveImage', { dataUrl: String(reader.result) }).then(
        (r) => setImages((list) => [...list, r.path]),
        (e: Error) => setError(e.message),
      );
    reader.readAsDataURL(file);
  };

  const attach = () =>
    host.request('pickImages', {}).then(
      (r) => setImages((list) => [...list, ...r.paths]),
      (e: Error) => setError(e.message),
    );

  return (
    <>
      {setup.status && (
        <SetupCard
          status={setup.status}
          busy={setup.busy}
          onAction={(action) => void setup.act(action, () => void send())}
          onDismiss={setup.dismiss}
        />
      )}
      <form
        className={`tl-composer${planning ? ' tl-planning' : ''}`}
        onSubmit={(e) => (e.preventDefault(), void send())}
      >
        <SuggestionList
          label="Mentions"
          rows={mentions.rows}
          active={mentions.active}
          onChoose={(index) => mentions.choose(mentions.results[index]!, setDraft)}
        />
        <SlashSuggestions
          results={slash.results}
          query={slash.query}
          active={slash.active}
          onChoose={slash.choose}
        />
        <SkillSuggestions
          results={skills.results}
          active={skills.active}
          onChoose={(skill) => skills.choose(skill, setDraft)}
        />
        {images.length > 0 && (
          <div className="tl-attachments">
            {images.map((path) => (
              <span key={path} className="tl-chip">
                <span className="codicon codicon-file-media" aria-hidden="true" /> {path.split(/[\\/]/).pop()}
                <button
                  type="button"
                  aria-label={`Remove ${path}`}
                  onClick={() => setImages((l) => l.filter((p) => p !== path))}
                >
                  <span className="codicon codicon-close" aria-hidden="true" />
                </button>
              </span>
            ))}
          </div>
        )}
        {error && (
          <div className="tl-error" role="alert">
            {error}
          </div>
        )}
        <RestrictedNotice />
        {statusOpen && (
          <StatusCard
            model={overrides.model ?? defaults?.model ?? ''}
            planning={planning}
            onClose={closeStatus}
          />
        )}
        <EditingNotice edit={edit} onCancel={() => (edit.cancel(), setDraft(''))} />
        {policyOpen && defaults && policyKnown && (
          <PolicyPickers value={overrides} defaults={defaults} onChange={setOverrides} />
        )}
        <textarea
          ref={input}
          className="tl-input"
          aria-label={running ? 'Steer the running turn' : 'Message'}
          placeholder={
            running
              ? 'Steer the agent…'
              : planning
                ? 'Describe what to plan… (the agent changes nothing)'
                : 'Ask Threadline… (@ adds context, $ a skill, / a command)'
          }
          value={draft}
          rows={1}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
          onKeyUp={() => (mentions.update(), skills.update(), slash.update())}
          onClick={() => (mentions.update(), skills.update(), slash.update())}
          onPaste={onPaste}
        />
        <ComposerToolbar
          controls={composerControls({
            models,
            overrides,
            defaults,
            setOverrides,
            policyKnown,
            policyOpen,
            togglePolicy: () => setPolicyOpen((open) => !open),
            attach: () => void attach(),
            plan: planControl(planning, setPlanning),
          })}
          trailing={
            <>
              {running && threadId && (
                <button
                  type="button"
                  className="tl-button tl-secondary"
                  title="Stop the running turn"
                  onClick={() =>
                    void host
                      .request('interruptTurn', { threadId, turnId: running })
                      .catch((e: Error) => setError(e.message))
                  }
                >
                  <span className="codicon codicon-debug-stop" aria-hidden="true" /> Stop
                </button>
              )}
              <button
                type="submit"
                className="tl-button tl-send"
                aria-label={running ? 'Steer' : 'Send'}
                title={running ? 'Steer (Enter)' : 'Send (Enter); Shift+Enter for a new line'}
                disabled={!draft.trim() && images.length === 0}
              >
                <span className="codicon codicon-send" aria-hidden="true" />
              </button>
            </>
          }
        />
      </form>
    </>
  );
}

/** A new thread with no model in the settings runs the provider's default model. */
function withDefaultModel(defaults: PickerDefaults | undefined, models: Model[]): PickerDefaults | null {
  if (!defaults) return null;
  if (defaults.model) return defaults;
  const model = models.find((m) => m.isDefault)?.model;
  return model ? { ...defaults, model } : null;
}

/**
 * The input grows with its text up to its CSS max-height, then scrolls. While it is measured at its
 * natural height the composer keeps its size: a composer shrinking for that moment would let the list
 * above grow and clamp its scroll position, which reads as the user scrolling up.
 */
function useGrowWithContent(input: React.RefObject<HTMLTextAreaElement | null>, text: string): void {
  useLayoutEffect(() => {
    const el = input.current;
    const form = el?.parentElement;
    if (!el || !form) return;
    form.style.minHeight = `${form.offsetHeight}px`;
    el.style.height = 'auto';
    const border = el.offsetHeight - el.clientHeight;
    el.style.height = `${el.scrollHeight + border}px`;
    form.style.minHeight = '';
  }, [input, text]);
}

/** Text added to a draft starts on a word of its own. */
const appended = (draft: string, text: string) =>
  draft && !/\s$/.test(draft) ? `${draft} ${text}` : `${draft}${text}`;
