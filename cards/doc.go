// Package cards holds the rules of debit cards, pure and without I/O: the
// card state machine (spec 3.4), the live-card limits, the per-transaction
// spending limit, and the arithmetic of a card transaction's life
// (authorization holds, clearings, advices, returns and their reversals).
//
// It exists so that every card rule lives in one place a newcomer can find
// by the area's name, and so that each rule is a plain function a test can
// call without a store, an issuer or a clock. The root package wires these
// decisions into store transactions (cards.go and its siblings there): it
// reads the state, asks this package what follows, and turns the answer
// into records, ledger postings and events. This package never imports the
// root.
//
//	if err := cards.Transition(cards.Active, cards.Frozen); err != nil { ... }
//	pos, mv, err := cards.Clear(pos, 1500, available)
//	// mv.Capture moves from the hold to the network, mv.Pull from the
//	// account, mv.Shortfall from the cardholder's receivable.
package cards
