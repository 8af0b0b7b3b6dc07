// Answers recorded from the real hub that the spec's snapshot does not foresee, for the client's
// tests and the e2e specs (served to the page by rewriting the mock hub's answer; the mock hub
// itself keeps answering by the contract).

/**
 * A job started by `hf jobs uv run` (2025-12), ids and names replaced: `secrets` is a list of
 * names where the spec has a map of name to null, and fields it has no value for are `null`.
 */
export const RECORDED_UV_JOB = {
  id: '6937e1a0c2f5e7d3b4a1f2e3',
  createdAt: '2025-12-09T08:31:12.544Z',
  owner: { id: '5f3e0c7a9b1d2e4f6a8b0c1d', name: 'alice', type: 'user' },
  dockerImage: 'ghcr.io/astral-sh/uv:python3.12-bookworm',
  spaceId: null,
  environment: {},
  secrets: ['HF_TOKEN', 'UV_SCRIPT_HF_TOKEN'],
  command: ['uv', 'run', 'train.py'],
  arguments: [],
  arch: null,
  flavor: 'cpu-basic',
  status: { stage: 'COMPLETED', message: null },
  createdBy: { id: '5f3e0c7a9b1d2e4f6a8b0c1d', name: 'alice' },
  startedAt: '2025-12-09T08:31:20.101Z',
  finishedAt: '2025-12-09T08:33:02.900Z',
} as const;
