// read_skill: the model opens one of the turn's enabled skills, or a file inside that skill's
// folder, on demand. Only those folders can be read this way: a name is looked up among the
// listed skills, and a file must really lie inside its skill (links resolved), so the tool cannot
// reach anything a skill does not hold. User skills live in Threadline's home, which commands do
// not see, so this is how the model reads them.
import { promises as fs } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArguments, ToolInputError, type AgentTool } from '../agent/tool';
import { isWithin } from '../sandbox/protectedPaths';
import type { Skill } from '../skills/skillCatalog';
import { MAX_SKILL_BYTES, SKILL_FILE } from '../skills/skillFile';

export function readSkillTool(skills: Skill[]): AgentTool {
  return {
    spec: {
      kind: 'function',
      name: 'read_skill',
      description:
        "Reads a skill's instructions (its SKILL.md), or a file inside the skill's folder, such as a reference or script the instructions mention.",
      parameters: {
        type: 'object',
        properties: {
          // No enum of the names: the schema stays the same as skills come and go, so the thread's
          // tool list (and the prompt cache after it) does too. The context lists the skills.
          name: { type: 'string', description: 'The name of a skill the context lists.' },
          file: {
            type: 'string',
            description: "A path relative to the skill's folder; leave it out for the instructions.",
          },
        },
        required: ['name'],
        additionalProperties: false,
      },
    },

    async run(call) {
      const { name, file } = parseArguments(call);
      const skill = skills.find((candidate) => candidate.name === name);
      if (!skill) {
        const available = skills.length
          ? `available: ${skills.map((s) => s.name).join(', ')}`
          : 'none is available';
        throw new ToolInputError(`no skill named ${String(name)}; ${available}`);
      }
      if (file !== undefined && typeof file !== 'string') throw new ToolInputError('`file` must be a string');
      const wanted = file ? resolve(skill.realFolder, file) : join(skill.realFolder, SKILL_FILE);
      const real = await fs.realpath(wanted).catch(() => null);
      if (real === null)
        throw new ToolInputError(`${file ?? SKILL_FILE}: no such file in skill ${skill.name}`);
      if (!isWithin(skill.realFolder, real)) {
        throw new ToolInputError(
          `${file}: outside the folder of skill ${skill.name}; only its own files can be read`,
        );
      }
      const stat = await fs.stat(real);
      if (!stat.isFile()) throw new ToolInputError(`${file}: not a file`);
      if (stat.size > MAX_SKILL_BYTES)
        throw new ToolInputError(`${file}: larger than ${MAX_SKILL_BYTES / 1024} KiB`);
      return { output: await fs.readFile(real, 'utf8') };
    },
  };
}
