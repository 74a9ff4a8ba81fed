//! Tests of the engine as a whole: forced wins with their distance and line, the draw laws,
//! multipv, determinism.
