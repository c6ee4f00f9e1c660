/** Paths of the repository's example graphs, which run offline on scripted models. */
import { fileURLToPath } from 'node:url';

export const TEAM_YAML = fileURLToPath(new URL('../../../../apps/examples/team.yaml', import.meta.url));
export const MCP_APPROVAL_YAML = fileURLToPath(new URL('../../../../apps/examples/mcp-approval.yaml', import.meta.url));
