package catalog

import (
	"fmt"
	"time"
)

// Stock is what a provider's own API last said about whether an offer
// could be launched, and when it said it: Lambda's regions with capacity,
// RunPod's stock status, a Vast.ai marketplace offer existing. It is an
// observation, not a promise: capacity changes by the minute, so every face
// shows how long ago it was seen. Curated offers carry none (a price list
// says nothing about capacity); only a live import sets it.
type Stock struct {
	State StockState
	// Seen is when the API answered (the import's fetch time).
	Seen time.Time
}

// StockState is one reading of capacity.
type StockState string

// Stock states.
const (
	// StockAvailable: the API listed capacity for the offer.
	StockAvailable StockState = "available"
	// StockLow: the API listed capacity but called it low (RunPod's
	// "Low" stock status): it may be gone by launch.
	StockLow StockState = "low"
	// StockNone: the API said there is no capacity now.
	StockNone StockState = "none"
)

// Available reports whether capacity was seen (plenty or low); false for
// a nil Stock (no reading).
func (s *Stock) Available() bool {
	return s != nil && (s.State == StockAvailable || s.State == StockLow)
}

// Age is how long before now the reading was taken (0 for a reading
// from the future: clocks differ).
func (s *Stock) Age(now time.Time) time.Duration {
	if s == nil || s.Seen.IsZero() || now.Before(s.Seen) {
		return 0
	}
	return now.Sub(s.Seen)
}

// ParseStockState reads a stored stock state: "" (no reading) or one of
// the states.
func ParseStockState(s string) (StockState, error) {
	switch st := StockState(s); st {
	case "", StockAvailable, StockLow, StockNone:
		return st, nil
	}
	return "", fmt.Errorf("%q is not a stock state (available, low or none)", s)
}
