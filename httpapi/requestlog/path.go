package requestlog

import "strings"

// deviceCodePath is the path segment an agent's device code follows in the
// agents routes (/agents/device-codes/{code}/status and /redeem).
const deviceCodePath = "/agents/device-codes/"

// maskedCode replaces a device code in a logged path.
const maskedCode = "****"

// MaskPath returns path as the logs keep it (the request log of GET
// /sandbox/requests and the server log's request lines): an agent's
// device code, which redeems for the agent's credential, is replaced by
// "****" (/agents/device-codes/****/redeem), so that whoever reads the
// logs cannot redeem or probe it. Every other path is returned as it is,
// without allocating.
func MaskPath(path string) string {
	i := strings.Index(path, deviceCodePath)
	if i < 0 {
		return path
	}
	start := i + len(deviceCodePath)
	end := strings.IndexByte(path[start:], '/')
	if end < 0 {
		end = len(path)
	} else {
		end += start
	}
	if start == end {
		return path
	}
	return path[:start] + maskedCode + path[end:]
}
