package catalog

import "math"

// FlexStartMaxHours is the longest a GCP flex-start (DWS) VM may run: 7 days.
const FlexStartMaxHours = 7 * 24

// CapacityBlockMaxHours is the longest AWS Capacity Block: 182 days.
const CapacityBlockMaxHours = 182 * 24

// CapacityBlockHours is the length of the shortest AWS Capacity Block that
// covers a job of the given hours: whole days from 1 to 14, then 7-day steps
// up to 182 days. ok is false when the job needs more than 182 days.
func CapacityBlockHours(hours float64) (block float64, ok bool) {
	if hours <= 0 {
		return 24, true
	}
	days := math.Ceil(hours/24 - 1e-9)
	if days > 14 {
		days = 7 * math.Ceil(days/7-1e-9)
	}
	if days*24 > CapacityBlockMaxHours {
		return 0, false
	}
	return days * 24, true
}
