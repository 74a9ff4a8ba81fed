//! The championship formats on small hand-made archives: group stages, groups then a
//! knock-out, the tege tie-break, Swiss results.
