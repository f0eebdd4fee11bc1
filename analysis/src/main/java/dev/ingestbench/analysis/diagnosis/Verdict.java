package dev.ingestbench.analysis.diagnosis;

/** One diagnosis with the numbers that support it. */
public record Verdict(String verdict, String evidence) {}
