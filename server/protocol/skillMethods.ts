// Skills: folders with a SKILL.md that add instructions to a turn. skills/list finds them per
// working directory, skills/config/write turns one on or off.
import { Type, type Static } from '@sinclair/typebox';
import { Opt, Params, Shape, StringEnum } from './schema';

export const SkillScope = StringEnum(['user', 'repo', 'system', 'admin']);
export type SkillScope = Static<typeof SkillScope>;

/** How a client may present a skill (from the front matter's `interface` table). */
export const SkillInterface = Shape({
  displayName: Opt(Type.String()),
  shortDescription: Opt(Type.String()),
  /** Absolute paths of icon files inside the skill's folder. */
  iconSmall: Opt(Type.String()),
  iconLarge: Opt(Type.String()),
  brandColor: Opt(Type.String()),
  defaultPrompt: Opt(Type.String()),
});
export type SkillInterface = Static<typeof SkillInterface>;

export const SkillMetadata = Shape({
  name: Type.String(),
  description: Type.String(),
  shortDescription: Opt(Type.String()),
  interface: Opt(SkillInterface),
  /** The SKILL.md file. */
  path: Type.String(),
  scope: SkillScope,
  enabled: Type.Boolean(),
  /** The installed plugin that brought the skill, when one did. */
  pluginId: Opt(Type.String()),
});
export type SkillMetadata = Static<typeof SkillMetadata>;

/** A SKILL.md that could not be used, and why. */
export const SkillErrorInfo = Shape({ path: Type.String(), message: Type.String() });
export type SkillErrorInfo = Static<typeof SkillErrorInfo>;

export const SkillsListEntry = Shape({
  cwd: Type.String(),
  skills: Type.Array(SkillMetadata),
  errors: Type.Array(SkillErrorInfo),
});
export type SkillsListEntry = Static<typeof SkillsListEntry>;

export const SkillsListParams = Params({
  /** Empty or absent: the server's working directory. */
  cwds: Type.Optional(Type.Array(Type.String())),
  forceReload: Type.Optional(Type.Boolean()),
  /** More folders scanned as user scope, for the named cwd only (ignored for cwds not listed). */
  perCwdExtraUserRoots: Opt(
    Type.Array(Type.Object({ cwd: Type.String(), extraUserRoots: Type.Array(Type.String()) })),
  ),
});
export const SkillsListResponse = Shape({ data: Type.Array(SkillsListEntry) });

export const SkillsConfigWriteParams = Params({
  enabled: Type.Boolean(),
  /** The skill's SKILL.md (or its folder). */
  path: Opt(Type.String()),
  /** Or the skill's name, when exactly one discovered skill has it. */
  name: Opt(Type.String()),
});
export const SkillsConfigWriteResponse = Shape({ effectiveEnabled: Type.Boolean() });

/** Folders scanned as user scope for every cwd, from now on in this process (replacing the last set). */
export const SkillsExtraRootsSetParams = Params({ extraRoots: Type.Array(Type.String()) });
export const SkillsExtraRootsSetResponse = Shape({});

/** The remote-skill methods take anything: they are answered with an error either way. */
export const SkillsRemoteParams = Params({});
export const SkillsRemoteResponse = Shape({});

export const skillNotifications = {
  /** Discovered skills may have changed: clients list them again. */
  'skills/changed': Shape({}),
} as const;

export type SkillsListParams = Static<typeof SkillsListParams>;
