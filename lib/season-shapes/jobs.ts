// Job put on the events queue when a new season shape needs its images reprocessed.
export const SHAPE_REPROCESS_JOB = 'SHAPE_REPROCESS.V1';
