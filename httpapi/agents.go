package httpapi

import (
	"net/http"

	"github.com/paygrid/payments"
	"github.com/paygrid/payments/agents"
)

// agentRoutes serve the Agent Management operations (platform credentials;
// redemption needs none) and the Agent Operations under /agents/me (the
// agent's Bearer credential).
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

func getAgent(r *request) (int, any, error) {
	a, err := r.eng.Agents.Get(r.ctx(), r.path("agentId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, a)
}

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

func deleteAgent(r *request) (int, any, error) {
	if err := r.eng.Agents.Delete(r.ctx(), r.path("agentId")); err != nil {
		return fail(err)
	}
	return noContent()
}

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

func regenerateDeviceCode(r *request) (int, any, error) {
	c, err := r.eng.Agents.RegenerateDeviceCode(r.ctx(), r.path("agentId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusCreated, c)
}

func approveAction(r *request) (int, any, error) {
	a, err := r.eng.Agents.Approve(r.ctx(), r.path("agentId"), r.path("actionId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, a)
}

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

func deviceCodeStatus(r *request) (int, any, error) {
	s, err := r.eng.Agents.DeviceCodeStatus(r.ctx(), r.path("code"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, s)
}

func redeemDeviceCode(r *request) (int, any, error) {
	c, err := r.eng.Agents.Redeem(r.ctx(), r.path("code"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, c)
}

func agentMe(r *request) (int, any, error) {
	a, err := r.eng.Agents.Me(r.ctx(), r.agent.ID)
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, a)
}

func agentTransactions(r *request) (int, any, error) {
	q := r.query()
	f := payments.TransactionFilter{Status: payments.TransactionStatus(q.str("status")), Type: q.str("type"), AccountIdentifier: q.str("accountIdentifier"),
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

func agentTransaction(r *request) (int, any, error) {
	tx, err := r.eng.Agents.Transaction(r.ctx(), r.agent.ID, r.path("transactionId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, tx)
}

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

func agentQuote(r *request) (int, any, error) {
	q, err := r.eng.Agents.Quote(r.ctx(), r.agent.ID, r.path("quoteId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, q)
}

func agentExecuteQuote(r *request) (int, any, error) {
	a, err := r.eng.Agents.ExecuteQuote(r.ctx(), r.agent.ID, r.path("quoteId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, a)
}

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

func agentAction(r *request) (int, any, error) {
	a, err := r.eng.Agents.Action(r.ctx(), r.agent.ID, r.path("actionId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, a)
}

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

func agentExternalAccount(r *request) (int, any, error) {
	a, err := r.eng.Agents.ExternalAccount(r.ctx(), r.agent.ID, r.path("externalAccountId"))
	if err != nil {
		return fail(err)
	}
	return ok(http.StatusOK, a)
}

func agentDeleteExternalAccount(r *request) (int, any, error) {
	if err := r.eng.Agents.DeleteExternalAccount(r.ctx(), r.agent.ID, r.path("externalAccountId")); err != nil {
		return fail(err)
	}
	return noContent()
}
