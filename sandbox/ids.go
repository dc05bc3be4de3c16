package sandbox

import "github.com/google/uuid"

// NewUUID draws the time-ordered UUIDs of record ids (payments.Config.NewUUID)
// for sandbox engines: version 7 UUIDs whose last three hex digits are 800.
// The sandbox steers outcomes by the last three characters of some ids (a
// card's cardholderId, a funding source's accountId), and
// a random id would steer one in 3 to 5 out of 4,096 cases; the ids an
// operation derives from its UUID add less than 0x100 to it (800 to 8ff),
// so no id the engine draws ends in a steering suffix. 62 random bits stay.
func NewUUID() (uuid.UUID, error) {
	u, err := uuid.NewV7()
	if err != nil {
		return u, err
	}
	u[14], u[15] = u[14]&0xf0|0x08, 0x00
	return u, nil
}
