// Package agents is the agents area (the reference's Agents operations):
// software that acts for one customer of the platform, under a policy of
// permissions, spending limits, account restrictions and approval
// thresholds that the platform sets and changes at any time.
//
// The package owns the area whole: its vocabulary (Agent, Policy,
// AgentAction, their statuses and refusals), its pure rules (CheckPolicy,
// Apply, Roll, Evaluate, the device-code and token formats) and its
// operations (Service, which the root facade exposes as eng.Agents). Its
// HTTP routes live in httpapi/agents.go.
//
// # Two callers
//
// The platform manages agents with its own credentials: Create,
// List, Get, Update (rename, pause, resume), Delete, UpdatePolicy,
// RegenerateDeviceCode and DeviceCodeStatus, and it decides the actions
// waiting for approval (Approvals, Approve, Reject).
//
// The agent software redeems the device code it was given (Redeem) for a
// bearer access token, shown once; every later call presents that token,
// which Authenticate turns into the agent id the /agents/me operations take
// (Me, Transactions, InternalAccounts, ExternalAccounts, CreateQuote,
// ExecuteQuote, TransferOut, TransferIn, Action, Actions...). Each of those
// reads the agent again in its own transaction, so a pause, a policy change
// or a delete applies to the next call on every engine process, with no
// cache to expire. Each is scoped to the agent's one customer: another
// customer's transaction, account or quote is answered exactly like a
// missing one, so an agent learns nothing about other customers.
//
// # How an operation runs
//
// Every write is one store transaction (ARCHITECTURE.md, "How one operation runs");
// every operation is a declaration (engine.Op, named after its method:
// executeQuoteOp is ExecuteQuote's) that engine.Run carries out, and its
// method is one line:
//
//   - the input is validated first, every bad field at once
//     (INVALID_INPUT with the fields);
//   - what needs the outside world is gathered before the transaction
//     (Prefetch): an action's amount converted into the policy's
//     currencies at the engine's rate (quotes.Rate), record ids
//     (Handle.NewID), device codes and access tokens (crypto/rand);
//   - the transaction reads the agent and what the action touches, decides
//     with the pure rules, and writes everything the decision implies: the
//     agent's usage, the action, the quote execution or transfer with its
//     ledger postings, the outbox event, and, on a handle made by
//     WithIdempotency, the idempotency record with the answer.
//
// A retry with the same Idempotency-Key and request replays the recorded
// answer; another request under the key is CONFLICT. Redeem is the one
// write that records no answer: its answer holds the bearer token, which
// the store keeps only as a hash, so a repeated redemption is refused
// rather than replayed.
//
// An amount is converted before the transaction, so the transaction checks
// that the policy's currencies are still those it was converted into. When
// they changed in between, the decision reports errPolicyMoved as
// engine.Missing (moved), and the runner converts again and decides again
// as the same idempotent call, for as long as the policy keeps moving
// (Refetches: engine.Unbounded): Approve, UpdatePolicy, ExecuteQuote,
// TransferOut and TransferIn. A transfer out, and the approval of one,
// hand the money's movement to the quotes area (quotes.Create), whose
// answer settles theirs. An approval whose run is refused rolls it back
// and records the action FAILED in a transaction of its own, under the
// same idempotent call; an execution that finds its quote expired marks
// it so and is refused in one commit (engine.Keep).
//
// Concurrent spends of one agent serialize on its record: the usage an
// action adds is written with the agent in the transaction that moves the
// money, so concurrent executes together never pass a limit (the root's
// TestAgents_ConcurrentExecutesKeepTheDailyLimit runs 64 at once).
//
// # Policy evaluation
//
// The policy's rules are pure functions, callable without a store or a
// clock: CheckPolicy lists every invalid member of a policy, Apply merges a
// partial update, Roll brings usage counters to a given instant (a new day
// or month starts them again, in UTC on the engine clock), and Evaluate
// decides one action. Evaluate checks the hard limits in a fixed order
// (account allowed, per-transaction, per-account, daily amount, daily
// count, monthly amount; the limit itself passes, one unit over does not)
// and then whether the action waits for approval (the default execution
// mode, the account's rule, or an amount strictly above the threshold). A
// broken hard limit is FORBIDDEN with details.reason naming the Refusal,
// and nothing changes.
//
//	var fe validate.Errors
//	agents.CheckPolicy(&fe, "policy", p)
//	u := agents.Roll(usage, now)
//	d := agents.Evaluate(p, u, agents.Spend{Amount: 5000, ThresholdAmount: 5000, AccountID: id, AccountAmount: 5000})
//
// # Actions and approval
//
// Every money-moving request of an agent (a quote it executes, a transfer
// out or in) is an AgentAction. One that runs at once is APPROVED with its
// transaction; one that needs approval is PENDING_APPROVAL until the
// platform approves it (the limits are checked again and the money moves,
// or the action becomes FAILED when it can no longer run) or rejects it
// (REJECTED). Deleting an agent rejects its pending actions.
//
// # Side effects and events
//
// The area emits one webhook, AGENT_ACTION.PENDING_APPROVAL, written to
// the outbox with the action that waits, and delivered after commit. The
// money an action moves goes through the quotes area's in-transaction
// functions (quotes.Execute, quotes.TransferIn, quotes.Create): their
// payouts are intents handed to the rail after commit, and their
// transaction webhooks are the quotes area's.
//
// # Ports, hooks and wiring
//
// The area has no port and serves no hook: it sits above quotes, accounts
// and customers (ARCHITECTURE.md) and calls their exported in-transaction
// functions (quotes.Execute, customers.Sending, accounts.Internal...).
// Area declares its tables and indexes, which the root's New registers;
// it has no due work. A quote paid from an embedded wallet cannot be
// executed by an agent: quotes.Execute refuses it unless the wallets
// area's signature check passed (wallets.CheckQuoteSignature).
//
// # Credentials
//
// An agent's secrets need no more than the standard library: a device code
// is 12 random bytes in an alphabet without look-alikes (FormatCode),
// redeemable for DeviceCodeTTL; an access token is TokenPrefix and 20
// random bytes in hex (FormatToken), stored only as its SHA-256
// (HashToken) and compared in constant time (TokenMatches). The wallet
// cryptography of package walletauth is the wallets area's, not this one's.
//
// # Example
//
// Through the root facade, the platform creates an agent, the agent
// software connects and executes a quote, and the platform approves what
// waits:
//
//	created, err := eng.Agents.Create(ctx, payments.AgentCreateRequest{
//		Name: "bookkeeper", CustomerID: customerID,
//		Policy: &agents.Policy{
//			Permissions:          []agents.Permission{agents.CreateQuotes, agents.ExecuteQuotes},
//			DefaultExecutionMode: agents.Auto,
//			SpendingLimits:       agents.SpendingLimits{Currency: "USD", PerTransactionLimit: 50_00},
//		},
//	})
//	cred, err := eng.Agents.Redeem(ctx, created.DeviceCode.Code) // once, by the agent software
//	agent, err := eng.Agents.Authenticate(ctx, cred.AccessToken)  // on every later call
//	q, err := eng.Agents.CreateQuote(ctx, agent.ID, payments.QuoteRequest{...})
//	act, err := eng.Agents.ExecuteQuote(ctx, agent.ID, q.ID)
//	if err == nil && act.Status == agents.PendingApproval {
//		act, err = eng.Agents.Approve(ctx, agent.ID, act.ID) // the platform decides
//	}
package agents
