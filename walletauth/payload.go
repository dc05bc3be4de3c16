package walletauth

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"time"
)

// Activity builds a payloadToSign in the reference's shape: the JSON {"organizationId","parameters","timestampMs","type"} with
// the keys in that order and parameters encoded with sorted keys. The
// service stores the exact string and compares signatures over it, so its
// content only has to be deterministic and bind what the request asks.
func Activity(organizationID, activityType string, parameters map[string]any, at time.Time) string {
	b, _ := json.Marshal(struct {
		OrganizationID string         `json:"organizationId"`
		Parameters     map[string]any `json:"parameters"`
		TimestampMs    string         `json:"timestampMs"`
		Type           string         `json:"type"`
	}{organizationID, parameters, strconv.FormatInt(at.UnixMilli(), 10), activityType})
	return string(b)
}

// Digest is the lowercase hex SHA-256 of b: the passkey challenge over a
// session-creation payload, and the fingerprint binding a signed retry to
// its request body.
func Digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
