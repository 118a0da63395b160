// Job put on the events queue when a spot is deleted: its messages and images are removed.
export const SPOT_DELETED_JOB = 'SPOT_DELETED.V1';
