// `$` in the composer offers the workspace's enabled skills: arrows move, Enter or Tab inserts
// `$name`, Escape closes. The list is asked of the host when a `$` is first typed and kept while the
// composer lives; the skills picked are remembered so the prompt can carry them as skill items.
import { useEffect, useState, type KeyboardEvent, type RefObject } from 'react';
import type { SkillMetadata } from '../../server/protocol/skillMethods';
import { useHost } from '../components/hooks';
import { insertSkill, rankSkills, skillQueryAt, type SkillQuery } from './skillMention';
import { suggestionKey, wrapIndex } from './suggestionKeys';

export function useSkillCompletion(draft: string, input: RefObject<HTMLTextAreaElement | null>) {
  const host = useHost();
  const [skills, setSkills] = useState<SkillMetadata[] | null>(null);
  const [mention, setMention] = useState<SkillQuery | null>(null);
  const [picked, setPicked] = useState<SkillMetadata[]>([]);
  const [active, setActive] = useState(0);

  const update = () => {
    const el = input.current;
    const next = el ? skillQueryAt(el.value, el.selectionStart ?? el.value.length) : null;
    setMention((prev) => (prev?.start === next?.start && prev?.query === next?.query ? prev : next));
  };

  useEffect(() => {
    if (!mention || skills !== null) return;
    let current = true;
    host.request('listSkills', {}).then(
      (r) => current && setSkills(r.skills),
      // A server without skills (or an older one) offers none.
      () => current && setSkills([]),
    );
    return () => void (current = false);
  }, [host, mention, skills]);

  useEffect(() => setActive(0), [mention]);

  const results = mention && skills ? rankSkills(skills, mention.query) : [];

  const choose = (skill: SkillMetadata, setDraft: (text: string) => void) => {
    const el = input.current;
    if (!mention || !el) return;
    const next = insertSkill(draft, mention, el.selectionStart ?? draft.length, skill.name);
    setDraft(next.text);
    setMention(null);
    setPicked((list) => [...list.filter((s) => s.path !== skill.path), skill]);
    requestAnimationFrame(() => el.setSelectionRange(next.caret, next.caret));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>, setDraft: (text: string) => void) =>
    suggestionKey(event, results.length, {
      move: (step) => setActive((i) => wrapIndex(i, step, results.length)),
      take: () => choose(results[Math.min(active, results.length - 1)], setDraft),
      close: () => setMention(null),
    });

  return { results, active, picked, update, choose, onKeyDown, clearPicked: () => setPicked([]) };
}

export function SkillSuggestions({
  results,
  active,
  onChoose,
}: {
  results: SkillMetadata[];
  active: number;
  onChoose: (skill: SkillMetadata) => void;
}) {
  if (results.length === 0) return null;
  return (
    <ul className="tl-mentions tl-skills" role="listbox" aria-label="Skills">
      {results.map((skill, index) => (
        <li
          key={skill.path}
          role="option"
          aria-selected={index === active}
          className={index === active ? 'tl-active' : undefined}
          title={skill.path}
          onMouseDown={(e) => (e.preventDefault(), onChoose(skill))}
        >
          <span className="codicon codicon-lightbulb" aria-hidden="true" />{' '}
          <span className="tl-skill-name">${skill.name}</span>{' '}
          <span className="tl-skill-description">
            {skill.interface?.shortDescription ?? skill.shortDescription ?? skill.description}
          </span>
        </li>
      ))}
    </ul>
  );
}
