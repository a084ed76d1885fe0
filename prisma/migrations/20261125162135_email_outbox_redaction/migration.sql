-- Delivered e-mails keep no live token (issue 14): `secrets` lists the tokens a queued mail carries
-- (reset and invitation tokens, public offer and appointment links); once it is sent they are
-- replaced by "[redacted]" in its bodies and the list is emptied. `message_id` keeps the SMTP
-- Message-ID of the delivery for the record.
-- AlterTable
ALTER TABLE "email_outbox" ADD COLUMN     "message_id" TEXT,
ADD COLUMN     "secrets" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- Mails sent before this migration have no list of their secrets: redact them by the shapes the
-- templates wrote them in (token lines, ?token= links, public offer and appointment links).
UPDATE "email_outbox"
   SET "text_body" = regexp_replace(regexp_replace(regexp_replace("text_body",
         '(Reset token|Invitation token): [A-Za-z0-9_-]+', '\1: [redacted]', 'g'),
         '([?&]token=)[A-Za-z0-9_%-]+', '\1[redacted]', 'g'),
         '(/api/public/(offers|appointment)/)[A-Za-z0-9_-]+', '\1[redacted]', 'g'),
       "html_body" = regexp_replace(regexp_replace(regexp_replace("html_body",
         '(Reset token|Invitation token): [A-Za-z0-9_-]+', '\1: [redacted]', 'g'),
         '([?&]token=)[A-Za-z0-9_%-]+', '\1[redacted]', 'g'),
         '(/api/public/(offers|appointment)/)[A-Za-z0-9_-]+', '\1[redacted]', 'g')
 WHERE "status" = 'sent';
