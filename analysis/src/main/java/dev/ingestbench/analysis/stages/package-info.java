/**
 * The sections every staged run's report shares, a scenario's and a round's (a round is a scenario
 * of one stage): the stages as they ran, from the status markers, and each job's verification once
 * it had stopped, from the result records.
 */
package dev.ingestbench.analysis.stages;
