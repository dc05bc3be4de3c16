package agents

import (
	"context"
	"crypto/rand"
	"errors"
	"iter"
	"strings"
	"time"

	"github.com/paygrid/payments/accounts"
	"github.com/paygrid/payments/customers"
	"github.com/paygrid/payments/internal/engine"
	"github.com/paygrid/payments/money"
	"github.com/paygrid/payments/platform"
	"github.com/paygrid/payments/validate"
	"github.com/shopspring/decimal"
)

// AgentCreateRequest is the body of POST /agents (createAgent). Name is
// 1..255 characters; Policy is required and checked whole (CheckPolicy).
type AgentCreateRequest struct {
	Name       string  `json:"name"`
	CustomerID string  `json:"customerId"`
	Policy     *Policy `json:"policy"`
}

// newDeviceCode draws a device code for agentID, valid from now.
func newDeviceCode(agentID string, now time.Time) DeviceCode {
	var b [12]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand panics on failure since Go 1.24)
	return DeviceCode{Code: FormatCode(b), AgentID: agentID, ExpiresAt: now.Add(DeviceCodeTTL)}
}

// Create creates an agent for a customer with its first device code, which
// the agent software redeems for its credential. Every invalid member is
// listed (INVALID_INPUT), an unknown customer as customerId; then every
// account of the policy's restrictions that is not the customer's
// (checkPolicyAccounts).
//
// The agent's id and device code are drawn before the transaction, which
// writes the agent and the code together; with an idempotency key a retry
// replays the same agent and code instead of creating another.
func (g Service) Create(ctx context.Context, req AgentCreateRequest) (*AgentCreated, error) {
	return engine.Run(ctx, g.e, createOp, req)
}

// createOp is Service.Create's operation: the agent's id and device code
// are drawn in Prefetch.
var createOp = engine.Op[AgentCreateRequest, *AgentCreated, DeviceCode]{Area: "agents", Name: "Create",
	Validate: func(req *AgentCreateRequest) error {
		var fe validate.Errors
		if fe.Required("name", req.Name) {
			fe.MaxLen("name", req.Name, 255)
		}
		fe.Required("customerId", req.CustomerID)
		if req.Policy == nil {
			fe.Missing("policy")
		} else {
			CheckPolicy(&fe, "policy", req.Policy)
		}
		return engine.Invalid(fe.Err())
	},
	Prefetch: func(_ context.Context, e *engine.Handle, _ *AgentCreateRequest, code *DeviceCode, _ error) error {
		id, err := e.NewID("Agent")
		if err != nil {
			return err
		}
		*code = newDeviceCode(id, e.Now())
		return nil
	},
	Decide: func(t *engine.Txn, in *AgentCreateRequest, f *DeviceCode) (out *AgentCreated, err error) {
		req, code, id := *in, *f, f.AgentID
		err = func() error {
			if _, err := customers.Get(t, req.CustomerID); err != nil {
				if engine.CodeOf(err) == engine.CodeCustomerNotFound {
					var fe validate.Errors
					fe.Add("customerId", nil, "customer %s does not exist", req.CustomerID)
					return engine.Invalid(fe)
				}
				return err
			}
			var fe validate.Errors
			if err := checkPolicyAccounts(t, &fe, "policy.accountRestrictions", req.CustomerID, req.Policy.AccountRestrictions); err != nil {
				return err
			}
			if err := engine.Invalid(fe.Err()); err != nil {
				return err
			}
			a := &agentRecord{Agent: Agent{ID: id, Name: req.Name, CustomerID: req.CustomerID, Policy: *req.Policy,
				Usage: Roll(Usage{}, t.Now), CreatedAt: t.Now, UpdatedAt: t.Now}, DeviceCode: code.Code}
			if err := engine.InsertJSON(t, tableAgents, id, a); err != nil {
				return err
			}
			if err := engine.InsertJSON(t, tableAgentDeviceCodes, code.Code, code); err != nil {
				return err
			}
			out = &AgentCreated{Agent: *agentView(a, t.Now), DeviceCode: code}
			return nil
		}()
		return out, err
	}}

// AgentFilter narrows List; zero members match everything, time bounds are
// inclusive.
type AgentFilter struct {
	CustomerID                  string
	IsPaused, IsConnected       *bool
	CreatedAfter, CreatedBefore time.Time
	UpdatedAfter, UpdatedBefore time.Time
}

// List lists agents, oldest first (newest first with p.Desc), a page at a
// time from the customer index when f names a customer, else from the
// index of every agent. INVALID_INPUT for a bad limit or a cursor of
// another list.
func (g Service) List(ctx context.Context, f AgentFilter, p engine.ListParams) (engine.Page[Agent], error) {
	return engine.Run(ctx, g.e, listOp, agentList{f, p})
}

// listOp is Service.List's operation.
var listOp = engine.Op[agentList, engine.Page[Agent], struct{}]{Area: "agents", Name: "List", Access: engine.Read,
	Decide: func(t *engine.Txn, in *agentList, _ *struct{}) (out engine.Page[Agent], err error) {
		f, p := in.f, in.p
		err = func() error {
			q := engine.ListQuery[agentRecord]{Table: tableAgents, Index: engine.IxAll, From: f.CreatedAfter, To: f.CreatedBefore,
				Match: func(a *agentRecord) bool {
					return (f.CustomerID == "" || a.CustomerID == f.CustomerID) &&
						(f.IsPaused == nil || a.IsPaused == *f.IsPaused) && (f.IsConnected == nil || a.IsConnected == *f.IsConnected) &&
						platform.InRange(a.CreatedAt, f.CreatedAfter, f.CreatedBefore) && platform.InRange(a.UpdatedAt, f.UpdatedAfter, f.UpdatedBefore)
				}}
			page, err := engine.List(t, q.Narrowest([2]string{ixCustomer, f.CustomerID}), p)
			if err != nil {
				return err
			}
			out, err = engine.MapPage(page, func(a *agentRecord) (*Agent, error) { return agentView(a, t.Now), nil })
			return err
		}()
		return out, err
	}}

// ListAll walks every page of List from p on (engine.All):
// each item with a nil error, or one pair with a page's error; breaking
// out of the loop reads no further page.
func (g Service) ListAll(ctx context.Context, f AgentFilter, p engine.ListParams) iter.Seq2[Agent, error] {
	return engine.All(ctx, p, func(ctx context.Context, p engine.ListParams) (engine.Page[Agent], error) {
		return g.List(ctx, f, p)
	})
}

// Get returns one agent (NOT_FOUND when there is none).
func (g Service) Get(ctx context.Context, id string) (*Agent, error) {
	return engine.Run(ctx, g.e, getOp, id)
}

// getOp is Service.Get's operation.
var getOp = engine.Op[string, *Agent, struct{}]{Area: "agents", Name: "Get", Access: engine.Read,
	Decide: func(t *engine.Txn, in *string, _ *struct{}) (out *Agent, err error) {
		id := *in
		err = func() error {
			a, err := agent(t, id)
			if err == nil {
				out = agentView(a, t.Now)
			}
			return err
		}()
		return out, err
	}}

// AgentUpdate is the body of PATCH /agents/{id}: nil members keep their value.
type AgentUpdate struct {
	Name     *string `json:"name,omitempty"`
	IsPaused *bool   `json:"isPaused,omitempty"`
}

// Update renames, pauses or resumes an agent. Pausing takes effect at once
// on every engine process: each agent call reads the agent in its own
// transaction. INVALID_INPUT when neither member is given or the name is
// empty or too long; NOT_FOUND for an unknown agent.
func (g Service) Update(ctx context.Context, id string, u AgentUpdate) (*Agent, error) {
	return engine.Run(ctx, g.e, updateOp, agentUpdate{id, u})
}

// updateOp is Service.Update's operation.
var updateOp = engine.Op[agentUpdate, *Agent, struct{}]{Area: "agents", Name: "Update",
	Validate: func(in *agentUpdate) error {
		u := in.u
		var fe validate.Errors
		if u.Name == nil && u.IsPaused == nil {
			fe.Add("name", nil, "give name or isPaused")
		}
		if u.Name != nil && fe.Required("name", *u.Name) {
			fe.MaxLen("name", *u.Name, 255)
		}
		return engine.Invalid(fe.Err())
	},
	Decide: func(t *engine.Txn, in *agentUpdate, _ *struct{}) (out *Agent, err error) {
		id, u := in.id, in.u
		err = func() error {
			a, err := agent(t, id)
			if err != nil {
				return err
			}
			if u.Name != nil {
				a.Name = *u.Name
			}
			if u.IsPaused != nil {
				a.IsPaused = *u.IsPaused
			}
			a.UpdatedAt = t.Now
			out = agentView(a, t.Now)
			return engine.PutJSON(t, tableAgents, id, a)
		}()
		return out, err
	}}

// Delete deletes an agent: its credential and device codes stop working at
// once, on every engine process. Its actions stay for the record; those
// still waiting for approval are REJECTED, since nobody can act on them.
// NOT_FOUND for an unknown (or already deleted) agent; with an idempotency
// key a retry replays the first answer.
func (g Service) Delete(ctx context.Context, id string) error {
	_, err := engine.Run(ctx, g.e, deleteOp, id)
	return err
}

// deleteOp is Service.Delete's operation.
var deleteOp = engine.Op[string, struct{}, struct{}]{Area: "agents", Name: "Delete",
	Decide: func(t *engine.Txn, in *string, _ *struct{}) (out struct{}, err error) {
		id := *in
		err = func() error {
			a, err := agent(t, id)
			if err != nil {
				return err
			}
			if err := rejectPending(t, id, "the agent was deleted"); err != nil {
				return err
			}
			for _, k := range [][2]string{{tableAgentTokens, a.TokenHash}, {tableAgentDeviceCodes, a.DeviceCode}} {
				if k[1] == "" {
					continue
				}
				if err := t.Delete(k[0], k[1]); err != nil && !errors.Is(err, engine.ErrNotFound) {
					return err
				}
			}
			return t.Delete(tableAgents, id)
		}()
		return out, err
	}}

// UpdatePolicy applies a partial policy update (permissions are replaced
// wholesale); every invalid member is listed, accounts of the restrictions
// that are not the agent's customer's included (checkPolicyAccounts).
// Changing the spending limits' currency without restating the limits
// recasts them at the engine's rate. The new policy applies to the next
// action at once.
//
// INVALID_INPUT (with every field), NOT_FOUND for an unknown agent, and
// QUOTE_RATE_UNAVAILABLE when a recast has no rate. The rate is read
// before the transaction; should the currency change meanwhile, the
// update reads the agent and converts again.
func (g Service) UpdatePolicy(ctx context.Context, id string, u PolicyUpdate) (*Agent, error) {
	return engine.Run(ctx, g.e, updatePolicyOp, policyUpdate{id, u})
}

// policyUpdate is an UpdatePolicy request: the agent and the change.
type policyUpdate struct {
	id string
	u  PolicyUpdate
}

// recasting is what a policy update gathers before its transaction: the
// spending limits' currency it read, and the recast of the limits into
// the new currency at one rate fixed before the transaction (nil when the
// currency stays), so that a rerun transaction recasts the same way.
type recasting struct {
	from   string
	recast Recast
}

// updatePolicyOp is Service.UpdatePolicy's operation: the agent is read
// and the rate fetched in Prefetch; the transaction finds the policy moved
// (moved) when the limits' currency changed since, and the update reads
// the agent and converts again, as the same idempotent call. Its
// idempotency fingerprint is the pair [id, update].
var updatePolicyOp = engine.Op[policyUpdate, *Agent, recasting]{Area: "agents", Name: "UpdatePolicy", Refetches: engine.Unbounded,
	Fingerprint: func(in *policyUpdate) any { return []any{in.id, in.u} },
	Prefetch: func(ctx context.Context, e *engine.Handle, in *policyUpdate, f *recasting, _ error) error {
		cur, err := NewService(e).Get(ctx, in.id)
		if err != nil {
			return err
		}
		*f = recasting{from: cur.Policy.SpendingLimits.Currency}
		if s := in.u.SpendingLimits; s != nil && s.Currency != nil && *s.Currency != f.from && money.Known(*s.Currency) {
			unit, err := convertAmount(e, ctx, 1_000_000_000, f.from, *s.Currency)
			if err != nil {
				return err
			}
			f.recast = func(v int64) (int64, error) { return mulDiv(v, unit, 1_000_000_000), nil }
		}
		return nil
	},
	Decide: func(t *engine.Txn, in *policyUpdate, f *recasting) (*Agent, error) {
		id, u := in.id, in.u
		a, err := agent(t, id)
		if err != nil {
			return nil, err
		}
		if a.Policy.SpendingLimits.Currency != f.from {
			return nil, moved(errPolicyMoved)
		}
		p, err := Apply(a.Policy, u, "", f.recast)
		var fe validate.Errors
		if err != nil && !errors.As(err, &fe) {
			return nil, err
		}
		if err := checkPolicyAccounts(t, &fe, "accountRestrictions", a.CustomerID, u.AccountRestrictions); err != nil {
			return nil, err
		}
		if err := engine.Invalid(fe.Err()); err != nil {
			return nil, err
		}
		a.Policy, a.UpdatedAt = p, t.Now
		return agentView(a, t.Now), engine.PutJSON(t, tableAgents, id, a)
	}}

// checkPolicyAccounts adds a field error to fe for every account that
// restrictions r name (allowedAccountIds, accountRules[].accountId) and
// that is not an internal or external account of customerID: another
// customer's account (or the platform's) is refused exactly like a missing
// one, so the answer tells nothing about other customers. prefix names r in
// the request. Empty ids, and fields already in error, are left to the
// policy's own checks.
func checkPolicyAccounts(t *engine.Txn, fe *validate.Errors, prefix, customerID string, r *AccountRestrictions) error {
	if r == nil {
		return nil
	}
	check := func(field, id string) error {
		if strings.TrimSpace(id) == "" || fe.Has(field) {
			return nil
		}
		owned, err := customerOwns(t, customerID, id)
		if err == nil && !owned {
			fe.Add(field, nil, "%s is not an account of customer %s", id, customerID)
		}
		return err
	}
	for i, id := range r.AllowedAccountIDs {
		if err := check(validate.Index(validate.Path(prefix, "allowedAccountIds"), i), id); err != nil {
			return err
		}
	}
	for i, rule := range r.AccountRules {
		if err := check(validate.Path(validate.Index(validate.Path(prefix, "accountRules"), i), "accountId"), rule.AccountID); err != nil {
			return err
		}
	}
	return nil
}

// customerOwns reports whether id is an internal or external account of
// customerID (an agent's quote may draw on either: a pull source is
// external).
func customerOwns(t *engine.Txn, customerID, id string) (bool, error) {
	var owner string
	var err error
	switch {
	case strings.HasPrefix(id, "InternalAccount:"):
		var a *accounts.InternalAccount
		if a, err = accounts.SharedInternal(t, id); err == nil {
			owner = a.CustomerID
		}
	case strings.HasPrefix(id, "ExternalAccount:"):
		var r *accounts.ExternalRecord
		if r, err = accounts.SharedExternal(t, id); err == nil {
			owner = r.CustomerID
		}
	default:
		return false, nil
	}
	if engine.CodeOf(err) == engine.CodeAccountNotFound {
		return false, nil
	}
	return err == nil && owner == customerID, err
}

// RegenerateDeviceCode issues a new device code for an agent that is not
// connected, invalidating its unredeemed codes; a connected agent is
// CONFLICT, an unknown one NOT_FOUND. The replaced code and the new one
// are written in one transaction, so at no instant can two codes of the
// agent be redeemed.
func (g Service) RegenerateDeviceCode(ctx context.Context, id string) (*DeviceCode, error) {
	return engine.Run(ctx, g.e, regenerateDeviceCodeOp, id)
}

// regenerateDeviceCodeOp is Service.RegenerateDeviceCode's operation: the
// code is drawn in Prefetch.
var regenerateDeviceCodeOp = engine.Op[string, *DeviceCode, DeviceCode]{Area: "agents", Name: "RegenerateDeviceCode",
	Prefetch: func(_ context.Context, e *engine.Handle, id *string, code *DeviceCode, _ error) error {
		*code = newDeviceCode(*id, e.Now())
		return nil
	},
	Decide: func(t *engine.Txn, in *string, f *DeviceCode) (out *DeviceCode, err error) {
		id, code := *in, *f
		err = func() error {
			a, err := agent(t, id)
			if err != nil {
				return err
			}
			if a.IsConnected {
				return engine.Errorf(engine.CodeConflict, "agent %s is connected; a device code is only issued to an agent that is not", id)
			}
			if a.DeviceCode != "" {
				var old DeviceCode
				switch err := engine.GetJSON(t, tableAgentDeviceCodes, a.DeviceCode, &old); {
				case err == nil:
					old.Replaced = true
					if err := engine.PutJSON(t, tableAgentDeviceCodes, old.Code, old); err != nil {
						return err
					}
				case !errors.Is(err, engine.ErrNotFound):
					return err
				}
			}
			a.DeviceCode, a.UpdatedAt = code.Code, t.Now
			if err := engine.PutJSON(t, tableAgents, id, a); err != nil {
				return err
			}
			c := code
			out = &c
			return engine.InsertJSON(t, tableAgentDeviceCodes, code.Code, code)
		}()
		return out, err
	}}

// AgentDeviceCodeStatus answers a device-code status poll: the platform
// polls it to learn when its agent software connected.
type AgentDeviceCodeStatus struct {
	Code     string `json:"code"`
	Redeemed bool   `json:"redeemed"`
}

// DeviceCodeStatus reports whether a device code was redeemed (NOT_FOUND
// for an unknown code or one of a deleted agent).
func (g Service) DeviceCodeStatus(ctx context.Context, code string) (*AgentDeviceCodeStatus, error) {
	return engine.Run(ctx, g.e, deviceCodeStatusOp, code)
}

// deviceCodeStatusOp is Service.DeviceCodeStatus's operation.
var deviceCodeStatusOp = engine.Op[string, *AgentDeviceCodeStatus, struct{}]{Area: "agents", Name: "DeviceCodeStatus", Access: engine.Read,
	Decide: func(t *engine.Txn, in *string, _ *struct{}) (out *AgentDeviceCodeStatus, err error) {
		code := *in
		err = func() error {
			var c DeviceCode
			if err := engine.GetJSON(t, tableAgentDeviceCodes, code, &c); err != nil {
				return engine.NotFound(err, engine.CodeNotFound, "device code", code)
			}
			out = &AgentDeviceCodeStatus{Code: c.Code, Redeemed: c.Redeemed}
			return nil
		}()
		return out, err
	}}

// Redeem exchanges a device code for the agent's bearer credential and
// connects the agent. The credential is in this answer only: the store
// keeps its SHA-256, and no idempotency record holds it (a repeated
// redemption is refused). A redeemed, replaced or expired code is
// INVALID_INPUT; an unknown one NOT_FOUND.
//
// Of concurrent redemptions of one code exactly one succeeds: each marks
// the code redeemed in its transaction, and the store serializes them. A
// previous credential of the agent stops working in the same transaction.
func (g Service) Redeem(ctx context.Context, code string) (*AgentCredential, error) {
	return engine.Run(ctx, g.e, redeemOp, code)
}

// redeemOp is Service.Redeem's operation: Unkeyed, since the answer must
// never be written down (see Redeem); the credential is drawn in Prefetch.
var redeemOp = engine.Op[string, *AgentCredential, string]{Area: "agents", Name: "Redeem", Access: engine.Unkeyed,
	Prefetch: func(_ context.Context, _ *engine.Handle, _ *string, token *string, _ error) error {
		var b [20]byte
		_, _ = rand.Read(b[:])
		*token = FormatToken(b)
		return nil
	},
	Decide: func(t *engine.Txn, in *string, f *string) (out *AgentCredential, err error) {
		code, token := *in, *f
		hash := HashToken(token)
		err = func() error {
			var c DeviceCode
			if err := engine.GetJSON(t, tableAgentDeviceCodes, code, &c); err != nil {
				return engine.NotFound(err, engine.CodeNotFound, "device code", code)
			}
			switch c.State(t.Now) {
			case Redeemed:
				return engine.Errorf(engine.CodeInvalidInput, "device code %s was already redeemed", code)
			case Replaced:
				return engine.Errorf(engine.CodeInvalidInput, "device code %s was replaced by a newer code", code)
			case Expired:
				return engine.Errorf(engine.CodeInvalidInput, "device code %s expired at %s", code, c.ExpiresAt.Format(time.RFC3339))
			}
			a, err := agent(t, c.AgentID)
			if err != nil {
				return engine.NotFound(err, engine.CodeNotFound, "device code", code)
			}
			if a.TokenHash != "" {
				if err := t.Delete(tableAgentTokens, a.TokenHash); err != nil && !errors.Is(err, engine.ErrNotFound) {
					return err
				}
			}
			c.Redeemed = true
			a.TokenHash, a.IsConnected, a.UpdatedAt = hash, true, t.Now
			if err := engine.PutJSON(t, tableAgentDeviceCodes, code, c); err != nil {
				return err
			}
			if err := engine.PutJSON(t, tableAgents, a.ID, a); err != nil {
				return err
			}
			out = &AgentCredential{AgentID: a.ID, AgentName: a.Name, AccessToken: token, Policy: a.Policy}
			return t.Insert(tableAgentTokens, hash, []byte(a.ID))
		}()
		return out, err
	}}

// Authenticate checks an agent's bearer credential against the store (no
// cache: a paused or deleted agent is refused at once on every process) and
// returns the agent: UNAUTHORIZED for an unknown, revoked or deleted
// credential, FORBIDDEN for a paused agent. The comparison with the stored
// hash is in constant time.
func (g Service) Authenticate(ctx context.Context, token string) (*Agent, error) {
	return engine.Run(ctx, g.e, authenticateOp, token)
}

// authenticateOp is Service.Authenticate's operation.
var authenticateOp = engine.Op[string, *Agent, struct{}]{Area: "agents", Name: "Authenticate", Access: engine.Read,
	Validate: func(token *string) error {
		if *token == "" {
			return errAgentCredential
		}
		return nil
	},
	Decide: func(t *engine.Txn, in *string, _ *struct{}) (out *Agent, err error) {
		token := *in
		err = func() error {
			id, err := t.Get(tableAgentTokens, HashToken(token))
			if errors.Is(err, engine.ErrNotFound) {
				return errAgentCredential
			}
			if err != nil {
				return err
			}
			a, err := actingAgent(t, string(id), "")
			if err != nil {
				return err
			}
			if !TokenMatches(token, a.TokenHash) {
				return errAgentCredential
			}
			out = agentView(a, t.Now)
			return nil
		}()
		return out, err
	}}

// mulDiv returns v*num/den rounded down, capped at the largest amount.
func mulDiv(v, num, den int64) int64 {
	r := decimal.NewFromInt(v).Mul(decimal.NewFromInt(num)).Div(decimal.NewFromInt(den)).Floor()
	if r.GreaterThan(decimal.NewFromInt(money.MaxAmount)) {
		return money.MaxAmount
	}
	return r.IntPart()
}

// rejectPending rejects every action of agentID still waiting for approval,
// emitting nothing (saveAction emits only for a pending action). It reads
// the action index of the agent directly: the entries are
// "<agent>|<sortKey>|<id>" (engine's index layout).
func rejectPending(t *engine.Txn, agentID, reason string) error {
	var ids []string
	err := t.Scan(engine.IndexTable(tableAgentActions, ixAgent), engine.ScanOptions{Prefix: engine.EscapeValue(agentID) + "|"}, func(k string, _ []byte) (bool, error) {
		ids = append(ids, k[strings.LastIndexByte(k, '|')+1:])
		return true, nil
	})
	if err != nil {
		return err
	}
	for _, id := range ids {
		r, err := action(t, id)
		if err != nil {
			return err
		}
		if r.Status == PendingApproval {
			r.Status, r.RejectionReason = Rejected, reason
			if _, err := saveAction(t, r); err != nil {
				return err
			}
		}
	}
	return nil
}
