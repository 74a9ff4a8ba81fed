//! Helpers shared by drafti's end-to-end tests.
