// update_plan: the model keeps a short checklist of its work, which clients show as the turn's plan.
import { parseArguments, ToolInputError, type AgentTool } from '../agent/tool';

const STATUSES = new Set(['pending', 'in_progress', 'inProgress', 'completed']);

export const updatePlanTool: AgentTool = {
  spec: {
    kind: 'function',
    name: 'update_plan',
    description:
      'Updates the task plan shown to the user. Give every step with its status; at most one step is in_progress at a time.',
    parameters: {
      type: 'object',
      properties: {
        explanation: { type: 'string' },
        plan: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              step: { type: 'string' },
              status: { type: 'string', enum: ['pending', 'in_progress', 'completed'] },
            },
            required: ['step', 'status'],
            additionalProperties: false,
          },
        },
      },
      required: ['plan'],
      additionalProperties: false,
    },
  },

  async run(call, { emit }) {
    const args = parseArguments(call);
    if (!Array.isArray(args.plan))
      throw new ToolInputError('update_plan needs `plan`, an array of {step, status}');
    const plan = args.plan.map((entry: unknown, index: number) => {
      const { step, status } = (entry ?? {}) as { step?: unknown; status?: unknown };
      if (typeof step !== 'string' || typeof status !== 'string' || !STATUSES.has(status)) {
        throw new ToolInputError(
          `update_plan: plan[${index}] must be {step: string, status: "pending"|"in_progress"|"completed"}`,
        );
      }
      return {
        step,
        status:
          status === 'in_progress'
            ? ('inProgress' as const)
            : (status as 'pending' | 'inProgress' | 'completed'),
      };
    });
    const explanation = typeof args.explanation === 'string' ? args.explanation : null;
    emit.turnEvent('turn/plan/updated', { explanation, plan });
    return { output: 'Plan updated' };
  },
};
