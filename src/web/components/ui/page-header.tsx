import type { ReactNode } from 'react';
import { PAGE_HEADER_CLASSES as C } from '@shared/site-shell';
import { cn } from './cn';

export interface PageHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  /** Small label above the title (e.g. the area). */
  eyebrow?: ReactNode;
  actions?: ReactNode;
  className?: string;
}

/** The page's one h1, its description and its main actions. */
export function PageHeader({ title, description, eyebrow, actions, className }: PageHeaderProps) {
  return (
    <header className={cn(C.header, className)}>
      <div className={C.text}>
        {eyebrow ? <p className={C.eyebrow}>{eyebrow}</p> : null}
        <h1 className={C.title}>{title}</h1>
        {description ? <p className={C.description}>{description}</p> : null}
      </div>
      {actions ? <div className="flex shrink-0 flex-wrap gap-2">{actions}</div> : null}
    </header>
  );
}
