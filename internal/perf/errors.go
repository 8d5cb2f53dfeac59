package perf

import (
	"errors"

	"github.com/gpuscout/gpuscout/internal/i18n"
)

// MsgError is an error of the performance model that the faces can render
// in the user's language: Error is the English.
type MsgError struct {
	Msg i18n.Msg
	Err error // the error it wraps, if any
}

func (e *MsgError) Error() string { return e.Msg.String() }
func (e *MsgError) Unwrap() error { return e.Err }

// msgErr is an error with a message key.
func msgErr(key string, args ...any) error { return &MsgError{Msg: i18n.M(key, args...)} }

// wrapMsg is key's message with err's message (in the user's language when
// err is a MsgError) as its last argument.
func wrapMsg(key string, err error) error {
	return &MsgError{Msg: i18n.M(key, ErrorMsg(err)), Err: err}
}

// ErrorMsg is an error's message as an i18n.Msg: its own message when it is
// a MsgError, else its English text.
func ErrorMsg(err error) i18n.Msg {
	var me *MsgError
	if errors.As(err, &me) {
		return me.Msg
	}
	return i18n.Text(err.Error())
}
