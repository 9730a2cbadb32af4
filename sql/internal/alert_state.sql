-- What `zoo-usage check` last reported: one row per alert (rule, subject, period), so that cron
-- mails the same alert once a day unless its value moves by more than the check's step.
CREATE TABLE IF NOT EXISTS internal.alert_state (
  rule             VARCHAR NOT NULL,
  subject          VARCHAR NOT NULL,
  period           VARCHAR NOT NULL,
  value            VARCHAR NOT NULL,
  reported_at      TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (rule, subject, period)
);
COMMENT ON TABLE internal.alert_state IS 'zoo-usage check''s memory: the last report of each alert, so that the same alert for the same period is reported once a day unless its value moves by more than the step (docs/check.md).';
COMMENT ON COLUMN internal.alert_state.rule IS 'The rule that fired (budget-actual, budget-forecast, spike, endpoint-budget, member-budget, token-budget, runway, invoice-difference, pending, stale).';
COMMENT ON COLUMN internal.alert_state.subject IS 'What the alert is about: the account, an endpoint, a member, a token label, a month.';
COMMENT ON COLUMN internal.alert_state.period IS 'The period the alert is about: a UTC month (YYYY-MM), a UTC day (YYYY-MM-DD) or a moment.';
COMMENT ON COLUMN internal.alert_state.value IS 'The value last reported, as printed (a USD decimal, days, hours or a count).';
COMMENT ON COLUMN internal.alert_state.reported_at IS 'When it was last reported (UTC, the check''s clock).';
