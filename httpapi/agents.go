package httpapi

import (
	"net/http"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/agents"
)

// agentRoutes serve the Agent Management operations (platform credentials;
// redemption needs none) and the Agent Operations under /agents/me (the
// agent's Bearer credential).
//
// An agent's credential comes from redeeming a device code (POST
// /agents/device-codes/{code}/redeem, the one public route): the platform
// hands the code of a new agent to the agent software, which redeems it,
// and the answer carries the credential once. On /agents/me routes the agent is the
// caller: a paused agent is 403 FORBIDDEN, an unknown or revoked credential
// 401 with a Bearer challenge, and the agent's policy permissions
// (CREATE_QUOTES, EXECUTE_QUOTES, ...) decide what it may do. Everything
// is scoped to the agent's one customer: another customer's record is
// answered exactly like a missing one. Its idempotency keys are scoped to
// it, so two agents never meet each other's answers.
//
// What an agent does that moves money is an action: executing a quote or a
// transfer answers the AgentAction, APPROVED with its transaction, or
// PENDING_APPROVAL when the policy asks the platform first (POST
// /agents/{agentId}/actions/{actionId}/approve or reject, TRANSACT).
func agentRoutes() []route {
	return []route{
		{method: "POST", path: "/agents", perm: manage, fn: createAgent},
		{method: "GET", path: "/agents", fn: listAgents},
		{method: "GET", path: "/agents/approvals", fn: listApprovals},
		{method: "GET", path: "/agents/{agentId}", fn: getAgent},
		{method: "PATCH", path: "/agents/{agentId}", perm: manage, fn: updateAgent},
		{method: "DELETE", path: "/agents/{agentId}", perm: manage, fn: deleteAgent},
		{method: "PATCH", path: "/agents/{agentId}/policy", perm: manage, fn: updateAgentPolicy},
		{method: "POST", path: "/agents/{agentId}/device-codes", perm: manage, fn: regenerateDeviceCode},
		{method: "POST", path: "/agents/{agentId}/actions/{actionId}/approve", perm: transact, fn: approveAction},
		{method: "POST", path: "/agents/{agentId}/actions/{actionId}/reject", perm: transact, fn: rejectAction},
		{method: "GET", path: "/agents/device-codes/{code}/status", fn: deviceCodeStatus},
		{method: "POST", path: "/agents/device-codes/{code}/redeem", public: true, fn: redeemDeviceCode},

		{method: "GET", path: "/agents/me", agent: true, fn: agentMe},
		{method: "GET", path: "/agents/me/transactions", agent: true, fn: agentTransactions},
		{method: "GET", path: "/agents/me/transactions/{transactionId}", agent: true, fn: agentTransaction},
		{method: "POST", path: "/agents/me/quotes", agent: true, fn: agentCreateQuote},
		{method: "GET", path: "/agents/me/quotes/{quoteId}", agent: true, fn: agentQuote},
		{method: "POST", path: "/agents/me/quotes/{quoteId}/execute", agent: true, fn: agentExecuteQuote},
		{method: "GET", path: "/agents/me/actions", agent: true, fn: agentActions},
		{method: "GET", path: "/agents/me/actions/{actionId}", agent: true, fn: agentAction},
		{method: "POST", path: "/agents/me/transfer-in", agent: true, fn: agentTransfer(true)},
		{method: "POST", path: "/agents/me/transfer-out", agent: true, fn: agentTransfer(false)},
		{method: "GET", path: "/agents/me/internal-accounts", agent: true, fn: agentInternalAccounts},
		{method: "GET", path: "/agents/me/external-accounts", agent: true, fn: agentExternalAccounts},
		{method: "POST", path: "/agents/me/external-accounts", agent: true, fn: agentCreateExternalAccount},
		{method: "GET", path: "/agents/me/external-accounts/{externalAccountId}", agent: true, fn: agentExternalAccount},
		{method: "DELETE", path: "/agents/me/external-accounts/{externalAccountId}", agent: true, fn: agentDeleteExternalAccount},
	}
}

// createAgent is POST /agents: 201 with the agent and its first device code,
// for the customer the request names, under the policy it sets.
func createAgent(r *request) (int, any, error) {
	var in payments.AgentCreateRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	out, err := r.eng.Agents.Create(r.ctx(), in)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusCreated, out)
}

// listAgents is GET /agents, oldest first, filtered by customerId, isPaused,
// isConnected and the created/updated date-time bounds.
func listAgents(r *request) (int, any, error) {
	q := r.query()
	f := payments.AgentFilter{CustomerID: q.str("customerId"), IsPaused: q.boolean("isPaused"), IsConnected: q.boolean("isConnected"),
		CreatedAfter: q.time("createdAfter"), CreatedBefore: q.time("createdBefore"),
		UpdatedAfter: q.time("updatedAfter"), UpdatedBefore: q.time("updatedBefore")}
	p := q.page(false)
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Agents.List(r.ctx(), f, p)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, page)
}

// listApprovals is GET /agents/approvals: the actions waiting for the
// platform's decision, newest first, filtered by agentId, customerId and the
// startDate/endDate bounds.
func listApprovals(r *request) (int, any, error) {
	q := r.query()
	f := payments.ApprovalFilter{AgentID: q.str("agentId"), CustomerID: q.str("customerId"), StartDate: q.time("startDate"), EndDate: q.time("endDate")}
	p := q.page(true)
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Agents.Approvals(r.ctx(), f, p)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, page)
}

// getAgent is GET /agents/{agentId}.
func getAgent(r *request) (int, any, error) {
	a, err := r.eng.Agents.Get(r.ctx(), r.path("agentId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, a)
}

// updateAgent is PATCH /agents/{agentId}: its name, or pausing and resuming
// it, effective at once on every process; 200.
func updateAgent(r *request) (int, any, error) {
	var in payments.AgentUpdate
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	a, err := r.eng.Agents.Update(r.ctx(), r.path("agentId"), in)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, a)
}

// deleteAgent is DELETE /agents/{agentId}: 204; its credential and device
// codes stop working at once, and its actions still waiting for approval are
// REJECTED.
func deleteAgent(r *request) (int, any, error) {
	if err := r.eng.Agents.Delete(r.ctx(), r.path("agentId")); err != nil {
		return fail(err)
	}
	return noContent()
}

// updateAgentPolicy is PATCH /agents/{agentId}/policy: a partial policy
// update (permissions replaced whole), applied to the agent's next action;
// 200 with the agent.
func updateAgentPolicy(r *request) (int, any, error) {
	var in payments.AgentPolicyUpdate
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	a, err := r.eng.Agents.UpdatePolicy(r.ctx(), r.path("agentId"), in)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, a)
}

// regenerateDeviceCode is POST /agents/{agentId}/device-codes: 201 with a
// new code, invalidating the unredeemed ones; CONFLICT for an agent already
// connected.
func regenerateDeviceCode(r *request) (int, any, error) {
	c, err := r.eng.Agents.RegenerateDeviceCode(r.ctx(), r.path("agentId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusCreated, c)
}

// approveAction is POST /agents/{agentId}/actions/{actionId}/approve
// (TRANSACT): the action runs, its limits checked again. 200 even when it
// can no longer run: the action is then FAILED, which is the answer.
// TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL once decided.
func approveAction(r *request) (int, any, error) {
	a, err := r.eng.Agents.Approve(r.ctx(), r.path("agentId"), r.path("actionId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, a)
}

// rejectAction is POST /agents/{agentId}/actions/{actionId}/reject, with an
// optional {"reason"} kept as the rejectionReason: 200 with the action
// REJECTED. Of a concurrent approve and reject exactly one wins.
func rejectAction(r *request) (int, any, error) {
	var in struct {
		Reason string `json:"reason"`
	}
	if len(r.body) > 0 {
		if err := r.decode(&in); err != nil {
			return fail(err)
		}
	}
	a, err := r.eng.Agents.Reject(r.ctx(), r.path("agentId"), r.path("actionId"), in.Reason)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, a)
}

// deviceCodeStatus is GET /agents/device-codes/{code}/status: whether the
// code was redeemed, so that the platform's UI can tell when the agent
// connected.
func deviceCodeStatus(r *request) (int, any, error) {
	s, err := r.eng.Agents.DeviceCodeStatus(r.ctx(), r.path("code"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, s)
}

// redeemDeviceCode is POST /agents/device-codes/{code}/redeem, without
// credentials: 200 with the agent's bearer credential, in this answer only
// (no idempotency record keeps it, so a second redemption is refused). A
// redeemed, replaced or expired code is INVALID_INPUT.
func redeemDeviceCode(r *request) (int, any, error) {
	c, err := r.eng.Agents.Redeem(r.ctx(), r.path("code"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, c)
}

// agentMe is GET /agents/me: the calling agent, its policy and its usage as
// of now.
func agentMe(r *request) (int, any, error) {
	a, err := r.eng.Agents.Me(r.ctx(), r.agent.ID)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, a)
}

// agentTransactions is GET /agents/me/transactions: its customer's
// transactions, newest first, filtered as GET /transactions is but never
// beyond that customer (VIEW_TRANSACTIONS).
func agentTransactions(r *request) (int, any, error) {
	q := r.query()
	f := payments.TransactionFilter{Status: payments.TransactionStatus(q.str("status")), Type: payments.TransactionType(q.str("type")), AccountIdentifier: q.str("accountIdentifier"),
		SenderAccountIdentifier: q.str("senderAccountIdentifier"), ReceiverAccountIdentifier: q.str("receiverAccountIdentifier"),
		Reference: q.str("reference"), StartDate: q.time("startDate"), EndDate: q.time("endDate")}
	p := q.page(true)
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Agents.Transactions(r.ctx(), r.agent.ID, f, p)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, page)
}

// agentTransaction is GET /agents/me/transactions/{transactionId}, of its
// customer only.
func agentTransaction(r *request) (int, any, error) {
	tx, err := r.eng.Agents.Transaction(r.ctx(), r.agent.ID, r.path("transactionId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, tx)
}

// agentCreateQuote is POST /agents/me/quotes (CREATE_QUOTES): 201 with the
// quote, from accounts of its customer the policy allows. Only this agent
// can read or execute it.
func agentCreateQuote(r *request) (int, any, error) {
	var in payments.QuoteRequest
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	q, err := r.eng.Agents.CreateQuote(r.ctx(), r.agent.ID, in)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusCreated, q)
}

// agentQuote is GET /agents/me/quotes/{quoteId}: a quote the agent created;
// QUOTE_NOT_FOUND for any other.
func agentQuote(r *request) (int, any, error) {
	q, err := r.eng.Agents.Quote(r.ctx(), r.agent.ID, r.path("quoteId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, q)
}

// agentExecuteQuote is POST /agents/me/quotes/{quoteId}/execute
// (EXECUTE_QUOTES): 200 with the action, APPROVED with its transaction or
// PENDING_APPROVAL. A broken hard limit is FORBIDDEN with nothing changed; a
// quote paid from an embedded wallet is WALLET_SIGNATURE_MISSING, as an
// agent cannot sign for one.
func agentExecuteQuote(r *request) (int, any, error) {
	a, err := r.eng.Agents.ExecuteQuote(r.ctx(), r.agent.ID, r.path("quoteId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, a)
}

// agentActions is GET /agents/me/actions: the agent's own actions, newest
// first, optionally of one status; how it learns that a pending one was
// approved or rejected.
func agentActions(r *request) (int, any, error) {
	q := r.query()
	status := agents.ActionStatus(q.str("status"))
	p := q.page(true)
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Agents.Actions(r.ctx(), r.agent.ID, status, p)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, page)
}

// agentAction is GET /agents/me/actions/{actionId}: one of its actions, with
// its quote and transaction as they stand now.
func agentAction(r *request) (int, any, error) {
	a, err := r.eng.Agents.Action(r.ctx(), r.agent.ID, r.path("actionId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, a)
}

// agentTransfer serves POST /agents/me/transfer-in and /transfer-out
// (CREATE_TRANSFERS): 201 with the action, under the policy as an execution
// is.
func agentTransfer(in bool) handlerFunc {
	return func(r *request) (int, any, error) {
		var body struct {
			Source                accountRef `json:"source"`
			Destination           accountRef `json:"destination"`
			Amount                int64      `json:"amount"`
			RemittanceInformation string     `json:"remittanceInformation"`
			PurposeOfPayment      string     `json:"purposeOfPayment"`
		}
		if err := r.decode(&body); err != nil {
			return fail(err)
		}
		t := payments.AgentTransfer{SourceAccountID: body.Source.AccountID, DestinationAccountID: body.Destination.AccountID,
			Amount: body.Amount, RemittanceInformation: body.RemittanceInformation, PurposeOfPayment: body.PurposeOfPayment}
		transfer := r.eng.Agents.TransferOut
		if in {
			transfer = r.eng.Agents.TransferIn
		}
		a, err := transfer(r.ctx(), r.agent.ID, t)
		if err != nil {
			return fail(err)
		}
		return ok(http.StatusCreated, a)
	}
}

// agentInternalAccounts is GET /agents/me/internal-accounts: its customer's,
// with balances (VIEW_TRANSACTIONS), filtered by currency and type.
func agentInternalAccounts(r *request) (int, any, error) {
	q := r.query()
	f := payments.InternalAccountFilter{Currency: q.str("currency"), Type: payments.AccountType(q.str("type"))}
	p := q.page(false)
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Agents.InternalAccounts(r.ctx(), r.agent.ID, f, p)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, page)
}

// agentExternalAccounts is GET /agents/me/external-accounts: its customer's
// (MANAGE_EXTERNAL_ACCOUNTS), filtered by currency.
func agentExternalAccounts(r *request) (int, any, error) {
	q := r.query()
	f := payments.ExternalAccountFilter{Currency: q.str("currency")}
	p := q.page(false)
	if err := q.err(); err != nil {
		return fail(err)
	}
	page, err := r.eng.Agents.ExternalAccounts(r.ctx(), r.agent.ID, f, p)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, page)
}

// agentCreateExternalAccount is POST /agents/me/external-accounts
// (MANAGE_EXTERNAL_ACCOUNTS): 201 with an account of its customer; a
// customerId, when given, must be that customer.
func agentCreateExternalAccount(r *request) (int, any, error) {
	var in payments.ExternalAccountInput
	if err := r.decode(&in); err != nil {
		return fail(err)
	}
	a, err := r.eng.Agents.CreateExternalAccount(r.ctx(), r.agent.ID, in)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusCreated, a)
}

// agentExternalAccount is GET
// /agents/me/external-accounts/{externalAccountId}, of its customer only.
func agentExternalAccount(r *request) (int, any, error) {
	a, err := r.eng.Agents.ExternalAccount(r.ctx(), r.agent.ID, r.path("externalAccountId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, a)
}

// agentDeleteExternalAccount is DELETE
// /agents/me/external-accounts/{externalAccountId}
// (MANAGE_EXTERNAL_ACCOUNTS): 204.
func agentDeleteExternalAccount(r *request) (int, any, error) {
	if err := r.eng.Agents.DeleteExternalAccount(r.ctx(), r.agent.ID, r.path("externalAccountId")); err != nil {
		return fail(err)
	}
	return noContent()
}
