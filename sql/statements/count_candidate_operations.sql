-- How many operations candidate_operations.sql lists in all, over every chunk: read once before the
-- fetch so that its progress can say x / N.
SELECT count(*)::BIGINT AS n
FROM operation_candidates({{templates}}, $window_start::TIMESTAMPTZ);
