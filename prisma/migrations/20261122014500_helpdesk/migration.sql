-- CreateTable
CREATE TABLE "number_sequences" (
    "tenant_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "last_value" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "number_sequences_pkey" PRIMARY KEY ("tenant_id","name")
);

-- CreateTable
CREATE TABLE "helpdesk_tickets" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "ticket_number" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "priority" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "requester_user_id" UUID NOT NULL,
    "requester_employee_id" UUID,
    "assignee_user_id" UUID,
    "resolved_at" TIMESTAMPTZ(3),
    "closed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "helpdesk_tickets_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateTable
CREATE TABLE "helpdesk_messages" (
    "tenant_id" UUID NOT NULL,
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "ticket_id" UUID NOT NULL,
    "author_user_id" UUID NOT NULL,
    "body" TEXT NOT NULL,
    "internal" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "helpdesk_messages_pkey" PRIMARY KEY ("tenant_id","id")
);

-- CreateIndex
CREATE UNIQUE INDEX "helpdesk_tickets_id_key" ON "helpdesk_tickets"("id");

-- CreateIndex
CREATE INDEX "helpdesk_tickets_tenant_id_status_created_at_idx" ON "helpdesk_tickets"("tenant_id", "status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "helpdesk_tickets_tenant_id_requester_user_id_idx" ON "helpdesk_tickets"("tenant_id", "requester_user_id");

-- CreateIndex
CREATE INDEX "helpdesk_tickets_tenant_id_assignee_user_id_idx" ON "helpdesk_tickets"("tenant_id", "assignee_user_id");

-- CreateIndex
CREATE UNIQUE INDEX "helpdesk_tickets_tenant_id_ticket_number_key" ON "helpdesk_tickets"("tenant_id", "ticket_number");

-- CreateIndex
CREATE UNIQUE INDEX "helpdesk_messages_id_key" ON "helpdesk_messages"("id");

-- CreateIndex
CREATE INDEX "helpdesk_messages_tenant_id_ticket_id_created_at_idx" ON "helpdesk_messages"("tenant_id", "ticket_id", "created_at");

-- AddForeignKey
ALTER TABLE "helpdesk_messages" ADD CONSTRAINT "helpdesk_messages_tenant_id_ticket_id_fkey" FOREIGN KEY ("tenant_id", "ticket_id") REFERENCES "helpdesk_tickets"("tenant_id", "id") ON DELETE NO ACTION ON UPDATE NO ACTION;
