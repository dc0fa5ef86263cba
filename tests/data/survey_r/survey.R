# Expected figures of tests/core/review/test_survey_r.py, computed once with R's survey package
# (Debian r-cran-survey 4.1-1-1, R from r-base-core) from samples.csv:
#   Rscript tests/data/survey_r/survey.R > tests/data/survey_r/expected.json
# Each sample: stratified simple random sampling without replacement, strata = map classes,
# fpc = N_h (pixels). Figures: OA (svymean, svyciprop beta), area share and area total of each
# class (svymean, svytotal; pixel area 0.25 m2), UA of each class (svyratio), the label-error
# rate of each label class as a domain (svyratio; svyciprop beta on subset(), with its degf).
library(survey)
options(digits = 15)
d <- read.csv("tests/data/survey_r/samples.csv")
out <- list()
fmt <- function(x) sprintf("%.15g", x)
for (s in unique(d$sample)) {
  x <- d[d$sample == s, ]
  x$correct <- as.numeric(x$map == x$ref)
  x$err <- as.numeric(x$label != x$ref)
  des <- svydesign(ids = ~1, strata = ~stratum, fpc = ~N, data = x)
  fig <- list()
  m <- svymean(~correct, des)
  ci <- svyciprop(~correct, des, method = "beta")
  fig[["oa"]] <- list(estimate = coef(m)[[1]], se = SE(m)[[1]], ci = as.numeric(confint(ci)))
  for (k in sort(unique(c(x$map, x$ref)))) {
    x[[paste0("ref", k)]] <- as.numeric(x$ref == k)
    x[[paste0("area", k)]] <- 0.25 * as.numeric(x$ref == k)
    x[[paste0("hit", k)]] <- as.numeric(x$ref == k & x$map == k)
    x[[paste0("map", k)]] <- as.numeric(x$map == k)
  }
  des <- svydesign(ids = ~1, strata = ~stratum, fpc = ~N, data = x)
  for (k in sort(unique(c(x$map, x$ref)))) {
    m <- svymean(as.formula(paste0("~ref", k)), des)
    t <- svytotal(as.formula(paste0("~area", k)), des)
    fig[[paste0("share", k)]] <- list(estimate = coef(m)[[1]], se = SE(m)[[1]])
    fig[[paste0("area_m2_", k)]] <- list(estimate = coef(t)[[1]], se = SE(t)[[1]])
    if (sum(x$map == k) > 0) {
      r <- svyratio(as.formula(paste0("~hit", k)), as.formula(paste0("~map", k)), des)
      fig[[paste0("ua", k)]] <- list(estimate = coef(r)[[1]], se = SE(r)[[1]])
    }
  }
  for (c in sort(unique(x$label))) {
    x$inlab <- as.numeric(x$label == c)
    x$errlab <- x$err * x$inlab
    des <- svydesign(ids = ~1, strata = ~stratum, fpc = ~N, data = x)
    r <- svyratio(~errlab, ~inlab, des)
    sub <- subset(des, label == c)
    entry <- list(estimate = coef(r)[[1]], se = SE(r)[[1]], rows = nrow(sub), degf = degf(sub))
    if (length(unique(x$err[x$label == c])) > 1) {
      ci <- svyciprop(~err, sub, method = "beta")
      entry$ci <- as.numeric(confint(ci))
      entry$df_factor <- (qt(0.025, nrow(sub) - 1) / qt(0.025, degf(sub)))^2
    }
    fig[[paste0("label_error", c)]] <- entry
  }
  out[[s]] <- fig
}
to_json <- function(v, indent = "") {
  if (is.list(v)) {
    inner <- paste0(indent, "  ", '"', names(v), '": ', sapply(v, to_json, indent = paste0(indent, "  ")))
    return(paste0("{\n", paste(inner, collapse = ",\n"), "\n", indent, "}"))
  }
  if (length(v) > 1) return(paste0("[", paste(fmt(v), collapse = ", "), "]"))
  fmt(v)
}
cat(to_json(out), "\n")
