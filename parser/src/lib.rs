//! PDN reader and writer for drafti.
