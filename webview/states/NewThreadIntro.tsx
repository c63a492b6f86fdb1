// What a thread with nothing in it yet shows (the start view, or a thread just made with New Thread):
// where it will work and three example prompts; picking one puts it into the composer to edit or send.
import { useStore } from '../components/hooks';

/** Examples that fit any workspace; each is a complete first message. */
export const examplePrompts = [
  'Explain how this project is organized and where its entry points are',
  'Find a likely bug in the code I am working on and propose a fix',
  'Write tests for the most important function that has none yet',
] as const;

export function NewThreadIntro({ place }: { place: { name: string; worktree: boolean } | undefined }) {
  const store = useStore();
  return (
    <section className="tl-intro" aria-label="Start a thread">
      <h2 className="tl-start-heading">What should we work on?</h2>
      <p className="tl-muted">
        {place ? (
          <>
            In <span className="tl-workspace">{place.name}</span>
            {place.worktree ? ', a worktree of its own' : ''}.{' '}
          </>
        ) : null}
        Type <kbd>@</kbd> to mention a file, or start from an example:
      </p>
      <ul className="tl-examples" aria-label="Example prompts">
        {examplePrompts.map((text) => (
          <li key={text}>
            <button type="button" className="tl-example" onClick={() => store.fillComposer({ text })}>
              <span className="codicon codicon-lightbulb" aria-hidden="true" />
              <span>{text}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
